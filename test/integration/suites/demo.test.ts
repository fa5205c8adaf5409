import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture, newChat, sendChat } from '../harness';
import type { CouncilApi } from '../../../src/extension';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { SessionLog } from '../../../src/core/council/sessionLog';
import {
  deepWorkFollowups,
  readDeepWorkMetadata,
  type DeepWorkResultMetadata,
} from '../../../src/vscode/deepWork/deepWorkResult';
import { councilFollowups } from '../../../src/vscode/chat/followups';
import { askCouncil } from '../../../src/cli/askCouncil';
import { DemoModel } from '../../../src/cli/demo/demoModel';
import { systemClock } from '../../../src/core/clock';
import { PriceBook } from '../../../src/core/llm/spending/prices';
import { neverCancelled } from '../../../src/core/llm/languageModel';
import { loadCouncilPersonas } from '../../../src/vscode/personas/personaSource';

/**
 * The demo session as the `council` command runs it (askCouncil on the CLI's demo model, each recommended answer
 * accepted, the command's request limit), here in the extension host: the same core as the chat door.
 */
async function demoThroughTheCommand(decision: string): Promise<SessionLog> {
  const extension = await councilExtension();
  const registry = await loadCouncilPersonas(extension.extensionUri, { useWorkspacePersonas: false });
  let id = 0;
  const run = await askCouncil({
    decision,
    ask: () => Promise.resolve({ kind: 'accept' }),
    deps: {
      model: new DemoModel(),
      personas: registry.personas,
      clock: systemClock,
      ids: { next: () => `cli-${++id}` },
      output: { progress: () => undefined, markdown: () => undefined },
      token: neverCancelled,
      spending: { limits: { maxRequests: 12 }, prices: new PriceBook() },
    },
  });
  return run.log;
}

/** `npm start`'s demo: the fixture's "Play the Demo Council" command, as the `councilTest.demo` setting does. */
async function playDemo(): Promise<void> {
  await fixture();
  await vscode.commands.executeCommand('councilTest.playDemo');
}

function councilMeta(result: vscode.ChatResult): CouncilResultMetadata {
  const metadata = result.metadata as CouncilResultMetadata | undefined;
  assert.equal(metadata?.council, 2, `a council result: ${JSON.stringify(result)}`);
  return metadata as CouncilResultMetadata;
}

function planMeta(result: vscode.ChatResult): DeepWorkResultMetadata {
  const metadata = readDeepWorkMetadata(result);
  assert.ok(metadata, `a /plan result: ${JSON.stringify(result)}`);
  return metadata as DeepWorkResultMetadata;
}

/** Presses Continue until the run is no longer paused; returns the last result. */
async function continueToEnd(first: vscode.ChatResult): Promise<vscode.ChatResult> {
  let result = first;
  for (let turn = 0; turn < 6 && planMeta(result).status === 'paused'; turn++) {
    const next = deepWorkFollowups(result)?.find(f => f.label === 'Continue');
    assert.ok(next, 'a Continue button');
    result = await sendChat(`@council /${next?.command} ${next?.prompt}`);
  }
  return result;
}

describe('the demo council (npm start)', function () {
  this.timeout(90_000);

  beforeEach(async () => {
    await newChat();
    await playDemo();
  });

  afterEach(async () => {
    (await fixture()).reset();
  });

  it('answers "How should we store sessions?" with real personas who disagree, then converge', async () => {
    const first = await sendChat('@council How should we store sessions?');
    assert.equal(councilMeta(first).state, 'clarifying');
    let result = first;
    for (let turn = 0; turn < 4 && councilMeta(result).state === 'clarifying'; turn++)
      result = await sendChat('@council /accept');
    assert.equal(councilMeta(result).state, 'completed');
    const id = councilMeta(result).sessionId ?? '';
    const saved = ((await councilExtension()).exports as CouncilApi).store.load(id);
    assert.ok(saved?.ok, 'the session is stored');
    const log = SessionLog.restore(saved?.ok ? saved.stored : undefined);
    const context = log.snapshot.context;
    const finalAnswer = context.finalAnswer ?? '';
    for (const name of ['Security Expert', 'Software Architect', 'Senior Developer'])
      assert.match(finalAnswer, new RegExp(name), `${name} in the final answer`);
    assert.match(finalAnswer, /server-side in Redis/);
    assert.match(finalAnswer, /JWTs for a future public API/, 'the remaining disagreement');
    assert.equal(context.debateCycles, 3, 'split in cycle 1, mostly agreed in cycle 2, settled in cycle 3');
    assert.equal(context.discussions[2]?.participatingPersonaIds.length, 2, 'cycle 3: only the two still apart');
    assert.equal(context.discussions[2]?.status === 'concluded' && context.discussions[2].converged, true);
    assert.ok(log.requestsUsed <= 12, `${log.requestsUsed} requests`);
    const transcript = JSON.stringify(log.snapshot);
    assert.match(transcript, /A JWT stays valid until it expires/, "the Security Expert's objection");
    assert.match(transcript, /stateless/, "the Architect's stateless JWTs");
    assert.doesNotMatch(transcript, /recommends option A/, 'no placeholder text');

    // One core behind both doors: the command spends what the chat spent on the same demo script.
    const command = await demoThroughTheCommand('How should we store sessions?');
    assert.equal(command.state, 'completed');
    assert.equal(command.requestsUsed, log.requestsUsed, 'the same requests through @council and council ask');
    assert.equal(command.snapshot.context.debateCycles, context.debateCycles, 'the same debate');
    console.log(
      `demo through @council: ${log.requestsUsed} requests, ${log.spent.inputTokens} in / ${log.spent.outputTokens} out; ` +
        `through council ask: ${command.requestsUsed} requests, ${command.spent.inputTokens} in / ${command.spent.outputTokens} out`,
    );

    // "Plan this" turns the answer into a /plan run, which the demo plays to its report.
    const planThis = councilFollowups(result).find(f => f.label === 'Plan this');
    assert.ok(planThis, 'a Plan this button');
    const planned = await continueToEnd(
      await sendChat(`@council /${planThis?.command} ${planThis?.prompt ?? ''}`.trim()),
    );
    assert.equal(planMeta(planned).status, 'completed', JSON.stringify(planMeta(planned)));
  });

  it('/plan runs discovery -> planning -> tickets on the workspace to its report', async () => {
    const result = await continueToEnd(await sendChat('@council /plan Make sessions revocable'));
    assert.equal(planMeta(result).status, 'completed', JSON.stringify(planMeta(result)));
    const asked = (await fixture()).requests().flatMap(r => r.tools.map(t => t.name));
    for (const tool of [
      'discovery_collector_result',
      'planning_collector_result',
      'ticket_agent_result',
      'ticket_collector_result',
    ])
      assert.ok(asked.includes(tool), `${tool} was asked for`);
  });
});
