import { peerLabels } from '../../../../src/core/council/anonymousPeers';
import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import type { DebateProtocol } from '../../../../src/core/council/protocol';
import { SessionLog, SessionRuleError } from '../../../../src/core/council/sessionLog';
import type { CouncilCommand } from '../../../../src/core/council/commands';
import { LanguageModelFailure, type ModelRequest } from '../../../../src/core/llm/languageModel';
import { messageText } from '../../../../src/core/llm/usage';
import { canAskMore, canExtend } from '../../../../src/core/session/selectors';
import { deferredQuestions } from '../../../support/sessionViews';
import { sessionView } from '../../../support/sessionViews';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { builtInPersonas, councilResponder, councilRig, type CouncilRig } from '../../../support/councilHarness';
import { councilStep, speakerOf, type CouncilScriptOptions } from '../../../support/councilScript';
import { jsonReply, requestedName, ScriptedModel, type ScriptedReply } from '../../../support/scriptedModel';
import { transcriptMarkdown } from '../../../../src/core/council/wording/transcript';
import { estimateDebate, expectDebate } from '../../../../src/core/council/debatePlan';
import type { DebateOutcome } from '../../../../src/core/council/debateOutcome';
import { outlookWords } from '../../../../src/core/session/debateOutlook';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 5 };

function stepOf(request: {
  messages: ModelRequest['messages'];
  tools?: ModelRequest['tools'];
  toolMode?: ModelRequest['toolMode'];
}): string {
  return councilStep(
    requestedName({ messages: request.messages, tools: request.tools ?? [], toolMode: request.toolMode }),
    request.messages.map(messageText).join('\n'),
  );
}

function steps(rig: CouncilRig): string[] {
  return rig.model.requests.map(stepOf);
}

/** Who spoke in each cycle, by name. */
function speakersByCycle(log: SessionLog): string[][] {
  const c = log.snapshot.context;
  const nameOf = new Map(c.participants.map(p => [p.participantId, p.name]));
  return c.discussions.map(d => d.participatingPersonaIds.map(id => nameOf.get(id) ?? id));
}

async function assertValid(log: SessionLog): Promise<void> {
  const personaNames = new Set((await builtInPersonas()).map(p => p.name));
  assert.deepEqual(validateSession(sessionView(log.snapshot), { personaNames }), []);
}

/** Runs a session to its end: answers every question; returns the failure that stopped it, if any. */
async function playOut(log: SessionLog, rig: CouncilRig): Promise<unknown> {
  try {
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    while (log.state === 'clarifying')
      await runCouncilTurn(log, { kind: 'answer', text: 'Latency matters most.' }, rig.deps);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('the economy protocol', () => {
  it('a default council (4 personas, 3 cycles, 2 answered questions) that never agrees spends at most 12 requests', async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 'never' }, maxRequests: 12 });
    const log = newCouncilSession(
      { request: 'Queue or cron for the nightly export?', userId: 'u', limits: LIMITS },
      rig.deps,
    );
    assert.equal(await playOut(log, rig), undefined);
    assert.equal(log.state, 'completed');
    // 1 opening (council and questions) + 4 drafts + 4 responses + 2 (cycle 3 trimmed to what the budget pays) + 1 answer.
    assert.equal(rig.model.requests.length, 12, `${rig.model.requests.length} requests: ${steps(rig).join(', ')}`);
    assert.deepEqual(
      speakersByCycle(log).map(s => s.length),
      [4, 4, 2],
    );
    assert.equal(log.requestsUsed, rig.model.requests.length);
    assert.ok(!steps(rig).includes('moderate_cycle'), 'no moderator request');
    // Both figures from the plan: the bound plays out the debate's rules on the 11 requests left after the opening;
    // the expected figure is the drafts, one later cycle among those still apart, and the answer.
    const bound = estimateDebate('economy', 4, 3, 11);
    const expected = expectDebate(bound, 'economy', 4, 0, { input: 0, output: 0 });
    assert.match(
      rig.output.text,
      new RegExp(
        `This debate expects about ${expected.requests} more requests and [\\d.k]+ tokens \\(≈ [\\d.]+ credits\\); at most ${bound.total} more requests and [\\d.k]+ tokens \\(≈ [\\d.]+ credits\\): 4 independent drafts`,
      ),
    );
    assert.ok(expected.requests < bound.total, `${expected.requests} < ${bound.total}`);
    const spent = log.spent;
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      new RegExp(
        `${log.requestsUsed} requests · [\\d.k]+ tokens \\([\\d.k]+ in, [\\d.k]+ out\\) · about [\\d.]+ AI credits \\(limit 12 requests\\)`,
      ),
    );
    assert.ok(spent.inputTokens > 0 && spent.outputTokens > 0 && spent.credits > 0, JSON.stringify(spent));
    await assertValid(log);
  });

  for (const [outlook, convergeAtCycle, expectedRequests] of [
    ['agree', 1, 4 + 1],
    ['standoff', 'never', 11],
  ] as const)
    it(`the opening's read "${outlook}" sets the expected figure, the chat says so, and the finished debate keeps it`, async () => {
      const remembered: DebateOutcome[] = [];
      const rig = await councilRig({
        script: { personaIds: FOUR, convergeAtCycle, outlook, decisionOptions: true, dissenters: 2 },
        maxRequests: 12,
      });
      const deps = {
        ...rig.deps,
        debateHistory: { read: () => remembered, remember: (o: DebateOutcome) => void remembered.push(o) },
      };
      const log = newCouncilSession(
        { request: 'Queue or cron for the nightly export?', userId: 'u', limits: LIMITS },
        deps,
      );
      await runCouncilTurn(log, { kind: 'retry' }, deps);
      while (log.state === 'clarifying')
        await runCouncilTurn(log, { kind: 'answer', text: 'Latency matters most.' }, deps);
      assert.equal(log.state, 'completed');
      assert.equal(log.snapshot.context.selection?.outlook, outlook);
      assert.match(rig.output.text, new RegExp(`This debate expects about ${expectedRequests} more requests`));
      assert.match(rig.output.text, new RegExp(`follows the council's first read: ${outlookWords(outlook)}`));
      assert.equal(remembered.length, 1);
      assert.equal(remembered[0]?.outlook, outlook);
      // A window reload replays the stored events: the read is still there for `/status` and the tools.
      const reloaded = SessionLog.restore(JSON.parse(JSON.stringify(log.stored)));
      assert.equal(reloaded.snapshot.context.selection?.outlook, outlook);
      assert.equal(log.requestsUsed - 1, expectedRequests, 'what the debate spent is what it expected');
    });

  it('later cycles seat only the personas still in disagreement; the others keep their stated positions', async () => {
    // Cycle 2: Senior Developer and Security Expert agree with everyone; Software Architect and QA Engineer agree
    // with those two but not with each other. Only the last two are contested.
    const settled = ['Senior Developer', 'Security Expert'];
    const rig = await councilRig({
      script: { personaIds: FOUR, convergeAtCycle: 'never' },
      responder: councilResponder({ personaIds: FOUR, convergeAtCycle: 'never' }, (step, request) => {
        if (step !== 'contribute_to_debate') return undefined;
        const prompt = request.messages.map(messageText).join('\n');
        const speaker = speakerOf(prompt);
        if (!/This is debate cycle [23]/.test(prompt)) return undefined;
        const others = ['Senior Developer', 'Security Expert', 'Software Architect', 'QA Engineer'].filter(
          n => n !== speaker,
        );
        // The speaker knows its colleagues by their positions' labels (anonymous peers).
        const labels = peerLabels(others);
        const agreesWith = (settled.includes(speaker) ? others : settled).map(name => labels.labelOf(name)!);
        return {
          kind: 'value',
          value: {
            position: `${speaker} holds.`,
            argument: 'Because.',
            keyPoints: ['The fact.'],
            confidence: 'high',
            changedPosition: false,
            agreesWith,
            concerns: [],
            // Votes that move each cycle, so the debate goes on to show who is seated again.
            vote: /This is debate cycle 2/.test(prompt) ? labels.labels[0] : 'my own',
          },
        };
      }),
    });
    const log = newCouncilSession(
      { request: 'Split the service?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(speakersByCycle(log), [
      ['Senior Developer', 'Security Expert', 'Software Architect', 'QA Engineer'],
      ['Senior Developer', 'Security Expert', 'Software Architect', 'QA Engineer'],
      ['Software Architect', 'QA Engineer'],
    ]);
    assert.equal(sessionView(log.snapshot).discussions.at(-1)?.status, 'limit_reached');
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /Not yet agreed between: Software Architect – QA Engineer/,
    );
    await assertValid(log);
  });

  it('stops as soon as every persona agrees with every other, without a moderator request', async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2 } });
    const log = newCouncilSession(
      { request: 'Split the service?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(
      steps(rig).filter(s => s !== 'contribute_to_debate'),
      ['select_personas', 'write_answer'],
    );
    assert.equal(steps(rig).filter(s => s === 'contribute_to_debate').length, 8);
    assert.equal(sessionView(log.snapshot).discussions.at(-1)?.status, 'concluded');
  });

  it('shows each contribution as soon as that persona finishes, not when the slowest one does', async () => {
    const rig = await councilRig({
      responder: councilResponder({ convergeAtCycle: 1 }, (step, request): ScriptedReply | undefined => {
        const prompt = request.messages.map(messageText).join('\n');
        if (step !== 'contribute_to_debate' || speakerOf(prompt) !== 'Senior Developer') return undefined;
        const value = {
          position: 'Slow but sure.',
          argument: 'Took my time.',
          keyPoints: ['Slow but sure.'],
          confidence: 'medium',
          changedPosition: false,
          agreesWith: [],
          concerns: [],
        };
        return { kind: 'parts', parts: [{ kind: 'text', text: jsonReply(value), delayMs: 30 }] };
      }),
      model: { supportsToolCalling: false },
    });
    const log = newCouncilSession({ request: 'q', userId: 'u', limits: LIMITS, skipClarification: true }, rig.deps);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    const text = rig.output.text;
    // Senior Developer sits first on the council but answers last: its block follows the others'.
    assert.ok(text.indexOf('Security Expert · cycle 1') < text.indexOf('Senior Developer · cycle 1'));
    assert.ok(text.indexOf('Software Architect · cycle 1') < text.indexOf('Senior Developer · cycle 1'));
  });

  it('streams the final answer into the chat in several parts, and never names a persona who is not on the council', async () => {
    const rig = await councilRig({
      responder: councilResponder({ convergeAtCycle: 2 }, step =>
        step === 'write_answer'
          ? {
              kind: 'parts',
              parts: [
                'Adopt sessions. ',
                'The Product',
                ' Manager would disagree, ',
                'but the Security Expert agrees.',
              ].map(text => ({ kind: 'text' as const, text })),
            }
          : undefined,
      ),
    });
    const log = newCouncilSession({ request: 'q', userId: 'u', limits: LIMITS, skipClarification: true }, rig.deps);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    const heading = rig.output.parts.findIndex(p => p.text.includes("## The council's answer"));
    const answerParts = rig.output.parts
      .slice(heading + 1)
      .filter(p => p.kind === 'markdown' && !p.text.includes('### Where each persona landed'));
    assert.ok(answerParts.length >= 3, `the answer arrived in ${answerParts.length} parts`);
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.doesNotMatch(answer, /Product Manager/);
    assert.doesNotMatch(rig.output.text, /Product Manager/);
    assert.match(answer, /the Security Expert agrees/, 'a council member is named');
    assert.match(answer, /### Where each persona landed[\s\S]*\*\*Security Expert:\*\*/);
  });
});

describe('an answer the model left empty', () => {
  it('still completes the session with what the council itself said', async () => {
    const rig = await councilRig({
      responder: councilResponder({ convergeAtCycle: 2 }, step => (step === 'write_answer' ? '' : undefined)),
    });
    const log = newCouncilSession({ request: 'q', userId: 'u', limits: LIMITS, skipClarification: true }, rig.deps);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /The model wrote no consolidated text[\s\S]*Where each persona landed[\s\S]*Security Expert/,
    );
  });
});

describe('the request budget @slow', () => {
  const scenarios: readonly { name: string; script: CouncilScriptOptions; skipClarification: boolean }[] = [
    {
      name: 'clarified, never agreeing',
      script: { personaIds: FOUR, convergeAtCycle: 'never', questions: 2 },
      skipClarification: false,
    },
    { name: '/debate, agreeing in cycle 2', script: { personaIds: FOUR, convergeAtCycle: 2 }, skipClarification: true },
  ];
  for (const protocol of ['economy', 'thorough'] as const satisfies readonly DebateProtocol[]) {
    for (const scenario of scenarios) {
      it(`${protocol}, ${scenario.name}: no budget from 1 to 24 is ever exceeded; a stop says why and goes on once raised`, async () => {
        for (let budget = 1; budget <= 24; budget++) {
          const rig = await councilRig({ script: scenario.script, protocol, maxRequests: budget });
          const log = newCouncilSession(
            { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: scenario.skipClarification },
            rig.deps,
          );
          const stopped = await playOut(log, rig);
          const made = rig.model.requests.length;
          assert.ok(made <= budget, `budget ${budget}: ${made} requests (${steps(rig).join(', ')})`);
          assert.equal(log.requestsUsed, made, `budget ${budget}: the session counts what it spent`);
          if (stopped !== undefined) {
            assert.ok(
              stopped instanceof LanguageModelFailure && stopped.kind === 'budgetSpent',
              `budget ${budget}: ${String(stopped)}`,
            );
            assert.match(
              stopped.message,
              new RegExp(
                `used ${log.requestsUsed} of its ${budget} model requests.*council\\.budget\\.maxRequests.*Try again`,
              ),
            );
            // Nothing is lost: the stored session continues under a larger budget.
            const raised = await councilRig({ script: scenario.script, protocol });
            const restored = SessionLog.restore(JSON.parse(JSON.stringify(rig.persisted.at(-1) ?? log.stored)));
            assert.equal(restored.requestsUsed, log.requestsUsed, `budget ${budget}: the count is stored`);
            assert.equal(await playOut(restored, raised), undefined);
            assert.equal(restored.state, 'completed');
          } else if (log.state === 'final') {
            // No request was left for the written answer: it was shown from the vote, and Try again writes it.
            assert.match(
              rig.output.text,
              new RegExp(
                `Written from the vote; the answer's own request failed: This session has used ${log.requestsUsed} of its ${budget} model requests`,
              ),
              `budget ${budget}`,
            );
            const raised = await councilRig({ script: scenario.script, protocol });
            assert.equal(await playOut(log, raised), undefined);
            assert.equal(log.state, 'completed', `budget ${budget}`);
          } else {
            assert.equal(log.state, 'completed', `budget ${budget}`);
            const answer = sessionView(log.snapshot).finalAnswer ?? '';
            assert.match(answer, new RegExp(`${made} requests? · .*\\(limit ${budget} requests\\)`));
            const last = sessionView(log.snapshot).discussions.at(-1);
            if (last?.status === 'concluded' && last.stoppedByBudget)
              assert.match(rig.output.text, /Spending limit reached/);
          }
          await assertValid(log);
        }
      });
    }
  }
});

describe('the request budget on random walks through the session @slow', () => {
  /** A small deterministic generator, so a failing walk can be replayed from its seed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  }

  /** The commands a user could give in the session's state. */
  function choices(log: SessionLog): CouncilCommand[] {
    const snapshot = log.snapshot;
    switch (log.state) {
      case 'clarifying': {
        const options: CouncilCommand[] = [
          { kind: 'answer', text: 'It must scale to 10k users.' },
          { kind: 'skip' },
          { kind: 'skipAll' },
        ];
        if (canAskMore(snapshot)) options.push({ kind: 'more' });
        if (deferredQuestions(snapshot).length > 0) options.push({ kind: 'revisit' });
        return options;
      }
      case 'completed':
      case 'final':
        return canExtend(snapshot) ? [{ kind: 'extend' }] : [];
      case 'cancelled':
        return [];
      default:
        return [{ kind: 'retry' }];
    }
  }

  for (const protocol of ['economy', 'thorough'] as const) {
    it(`${protocol}: answers, skips, more questions, revisits and extensions never spend beyond budgets 1 to 20`, async () => {
      for (let seed = 1; seed <= 6; seed++) {
        for (let budget = 1; budget <= 20; budget++) {
          const next = random(seed * 100 + budget);
          const script = {
            personaIds: FOUR.slice(0, 2 + Math.floor(next() * 3)),
            convergeAtCycle: next() < 0.5 ? ('never' as const) : 2,
            questions: Math.floor(next() * 3),
            moreQuestions: 1,
          };
          const rig = await councilRig({ script, protocol, maxRequests: budget });
          const log = newCouncilSession(
            { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: next() < 0.3 },
            rig.deps,
          );
          let command: CouncilCommand = { kind: 'retry' };
          for (let step = 0; step < 12; step++) {
            try {
              await runCouncilTurn(log, command, rig.deps);
            } catch (error) {
              const budgetStop = error instanceof LanguageModelFailure && error.kind === 'budgetSpent';
              assert.ok(
                budgetStop || error instanceof SessionRuleError,
                `seed ${seed}, budget ${budget}: ${String(error)}`,
              );
            }
            assert.ok(
              rig.model.requests.length <= budget,
              `seed ${seed}, budget ${budget}: ${rig.model.requests.length} requests (${steps(rig).join(', ')})`,
            );
            const options = choices(log);
            if (options.length === 0) break;
            command = options[Math.floor(next() * options.length)] ?? { kind: 'retry' };
          }
          assert.equal(log.requestsUsed, rig.model.requests.length);
          await assertValid(log);
        }
      }
    });
  }
});

describe('models per role', () => {
  it('a persona speaks on its own model, the answer on the synthesis model; the transcript and the chat say which, and the budget counts them all', async () => {
    const rig = await councilRig({ script: { convergeAtCycle: 2 }, maxRequests: 20 });
    const other = new ScriptedModel(councilResponder({ convergeAtCycle: 2 }), { id: 'other', family: 'other' });
    Object.defineProperty(other, 'name', { value: 'Other Model' });
    const deps = {
      ...rig.deps,
      roleModels: {
        forPersona: async (persona: { id: string }) =>
          persona.id === 'security-expert'
            ? { model: other, note: '`o3` is not available; Security Expert uses Other Model instead.' }
            : { model: rig.model },
        forSynthesis: async () => ({ model: other }),
      },
    };
    const log = newCouncilSession({ request: 'q', userId: 'u', limits: LIMITS, skipClarification: true }, deps);
    await runCouncilTurn(log, { kind: 'retry' }, deps);
    assert.equal(log.state, 'completed');
    const otherSteps = other.requests.map(stepOf);
    assert.deepEqual(
      otherSteps,
      ['contribute_to_debate', 'contribute_to_debate', 'write_answer'],
      'Security Expert twice, then the answer',
    );
    assert.ok(
      rig.model.requests.every(r => !r.messages.map(messageText).join('\n').includes('You are Security Expert')),
    );
    assert.equal(log.requestsUsed, rig.model.requests.length + other.requests.length, 'one budget for every model');
    assert.match(rig.output.text, /#### Security Expert · cycle 1 · Other Model/);
    assert.doesNotMatch(rig.output.text, /#### Senior Developer · cycle 1 ·/);
    assert.equal(rig.output.text.split('`o3` is not available').length - 1, 1, 'the note is shown once');
    assert.match(transcriptMarkdown(log.snapshot), /\*\*Security Expert\*\* \(cycle 1, on Other Model\)/);
    // More than one model ran: the answer's footer says who ran on what.
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /Models: .*Security Expert on Other Model.*Synthesis on Other Model/,
    );
  });
});
