import assert from 'node:assert/strict';
import { defaultContributors } from '../../../../src/core/deepWork/runDeepWork';
import {
  episodicMemoryContributor,
  MAX_EPISODIC_MEMORY_TOKENS,
  type EpisodicMemory,
} from '../../../../src/core/plan/contributors/episodicMemory';
import { assembleContributions } from '../../../../src/core/plan/contributors/assembly';
import { readBoard } from '../../../../src/core/plan/pipelineBoard';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { RunStore } from '../../../../src/vscode/deepWork/runStore';
import { MemoryMemento } from '../../../support/memoryMemento';
import { pipelineModel, requestText } from '../../../support/pipelineScript';
import type { ModelRequest } from '../../../../src/core/llm/languageModel';
import { runFixture } from '../../core/plan/stages/harness';

/** The structured tool a request asks for, i.e. the kind of agent that sent it. */
function replyTool(request: { readonly tools: readonly { readonly name: string }[] }): string | undefined {
  return request.tools.map(tool => tool.name).find(name => name.endsWith('_result') || name.endsWith('_report'));
}

/** The episodic-memory fence in a prompt, or undefined. */
function memoryFence(request: Pick<ModelRequest, 'messages'>): string | undefined {
  return /<untrusted-data source="episodic-memory">[\s\S]*?<\/untrusted-data>/.exec(requestText(request))?.[0];
}

describe("episodic memory: what earlier /plan runs decided reaches the next run's agents", () => {
  it("a second run's planning and ticket agents are sent the first run's goal and tickets, fenced as data; no other agent is", async () => {
    const store = new RunStore(MemoryMemento.of({}), () => '2026-03-01T10:00:00.000Z');
    const first = await runFixture(pipelineModel(), { goal: 'Add subtraction to the calculator.' });
    assert.equal(first.outcome.status, 'completed');
    await store.save(first.outcome.state, 'completed');
    const titles = readBoard(
      first.outcome.state.blackboard,
    ).stages.planning?.result.planningCuration.curation.finalizedTickets.map(ticket => ticket.title);
    assert.ok(titles && titles.length > 0);

    const model = pipelineModel();
    const second = await runFixture(model, {
      goal: 'Add division to the calculator.',
      runId: 'wf-00000000-0000-4000-8000-0000000000ff',
      contributors: defaultContributors().register(episodicMemoryContributor(store)),
    });
    assert.equal(second.outcome.status, 'completed');

    const remembering = model.requests.filter(request =>
      ['planning_agent_result', 'ticket_agent_result'].includes(replyTool(request) ?? ''),
    );
    assert.ok(remembering.some(request => replyTool(request) === 'planning_agent_result'));
    assert.ok(remembering.some(request => replyTool(request) === 'ticket_agent_result'));
    for (const request of remembering) {
      const fence = memoryFence(request);
      assert.ok(fence, `the ${replyTool(request)} prompt carries the memory`);
      assert.match(fence, /Earlier runs in this workspace, newest first/);
      assert.match(
        fence,
        /\(completed\): Workflow plan\. Goal: Add subtraction to the calculator\. Completed: discovery, planning, tickets\. Decided 2 tickets: /,
      );
      for (const title of titles) assert.ok(fence.includes(title), `the first run decided "${title}"`);
    }
    // Discovery and the collectors are sent no memory (they map and merge; they decide nothing).
    const others = model.requests.filter(request =>
      [
        'discovery_report',
        'discovery_collector_result',
        'planning_collector_result',
        'ticket_collector_result',
      ].includes(replyTool(request) ?? ''),
    );
    assert.ok(others.length > 0);
    for (const request of others) assert.equal(memoryFence(request), undefined);
  });

  it(`stays within ${MAX_EPISODIC_MEMORY_TOKENS} tokens (at 4 characters a token) however long the earlier runs' accounts, newest kept`, async () => {
    const long = (n: number) => `Goal ${n}: ${'a very long goal and a long list of tickets '.repeat(40)}`;
    const memory: EpisodicMemory = {
      recall: async limit =>
        Array.from({ length: 10 }, (_, n) => ({
          runId: `wf-${n}`,
          finishedAt: `2026-01-${String(10 + n).padStart(2, '0')}T00:00:00.000Z`,
          outcome: 'failed' as const,
          summary: long(n),
        })).slice(0, limit),
    };
    const registry = defaultContributors().register(episodicMemoryContributor(memory));
    const [contribution] = (
      await assembleContributions(
        registry,
        { agentType: 'ticket-agent', currentContextId: 'wf-current/ticket-agent/1', metadata: {} },
        neverCancelled,
      )
    ).filter(c => c.name === 'episodic-memory');
    assert.ok(contribution);
    const inner = /<untrusted-data source="episodic-memory">\n?([\s\S]*?)\n?<\/untrusted-data>/.exec(
      contribution.text,
    )?.[1];
    assert.ok(inner);
    assert.ok(inner.length <= MAX_EPISODIC_MEMORY_TOKENS * 4, `${inner.length} characters`);
    // recall gives the newest among what it returned first once sorted: the newest run leads, whole lines to the bound.
    assert.match(inner, /\n- 2026-01-13 \(failed\): Goal 3:/);
    assert.doesNotMatch(inner, /Goal 0:/, 'the oldest runs are the ones left out');
  });
});
