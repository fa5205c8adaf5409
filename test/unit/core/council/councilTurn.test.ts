import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { SessionLog, SessionRuleError } from '../../../../src/core/council/sessionLog';
import { CancelledError, LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { activeAssumptions, activeQuestion } from '../../../../src/core/session/selectors';
import { sessionView } from '../../../support/sessionViews';
import { cancellationSource, requestedName } from '../../../support/scriptedModel';
import { builtInPersonas, councilResponder, councilRig, type CouncilRig } from '../../../support/councilHarness';
import { councilStep } from '../../../support/councilScript';
import { messageText } from '../../../../src/core/llm/usage';

const limits = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 20 };

async function personaNames(): Promise<ReadonlySet<string>> {
  return new Set((await builtInPersonas()).map(p => p.name));
}

async function assertValid(log: SessionLog): Promise<void> {
  const issues = validateSession(sessionView(log.snapshot), { personaNames: await personaNames() });
  assert.deepEqual(issues, []);
}

function start(
  rig: CouncilRig,
  request = 'How should we store user sessions?',
  extra: { skipClarification?: boolean } = {},
): SessionLog {
  return newCouncilSession({ request, userId: 'user-1', limits, ...extra }, rig.deps);
}

function stepCalls(rig: CouncilRig): string[] {
  return rig.model.requests.map(r =>
    councilStep(
      requestedName({ messages: r.messages, tools: r.tools, toolMode: r.toolMode }),
      r.messages.map(messageText).join('\n'),
    ),
  );
}

describe('a council turn', () => {
  it('selects personas and proposes questions in one request, then shows the first question alone with its recommended answer', async () => {
    const rig = await councilRig();
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'clarifying');
    assert.deepEqual(stepCalls(rig), ['open_session']);
    assert.match(rig.output.text, /Round 1 question 1/);
    assert.doesNotMatch(rig.output.text, /Round 1 question 2/);
    assert.match(rig.output.text, /Recommended answer:\*\* Recommended answer 1\.1/);
    await assertValid(log);
  });

  it('runs clarify -> answer -> debate -> final end to end, recording every step', async () => {
    const rig = await councilRig({ script: { convergeAtCycle: 2 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'answer', text: 'Latency matters most' }, rig.deps);
    assert.equal(log.state, 'clarifying');
    assert.match(rig.output.text, /Round 1 question 2/);
    await runCouncilTurn(log, { kind: 'accept' }, rig.deps);
    assert.equal(log.state, 'completed');
    const session = sessionView(log.snapshot);
    assert.equal(session.debateCycles, 2, 'converged after cycle 2');
    assert.equal(session.discussions.at(-1)?.status, 'concluded');
    assert.ok(session.finalAnswer?.includes("The council's answer"));
    assert.ok(session.finalAnswer?.includes('Where each persona landed'));
    assert.deepEqual(
      session.answers.map(a => a.answer),
      ['Latency matters most', 'Recommended answer 1.2'],
    );
    assert.equal(session.messageTurns.filter(t => t.messageType === 'conclusion').length, 3);
    await assertValid(log);
    // Every event was persisted as it happened, and the last stored log replays to the same session.
    const restored = SessionLog.restore(rig.persisted.at(-1));
    assert.deepEqual(sessionView(restored.snapshot), session);
  });

  it('a persona that changes position says why, and the change reaches the transcript', async () => {
    const rig = await councilRig({ script: { convergeAtCycle: 2 } });
    const log = start(rig, 'Design it', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    const changed = sessionView(log.snapshot).messageTurns.filter(
      t => t.messageType === 'discussion' && t.changedPosition,
    );
    assert.equal(changed.length, 3);
    assert.match(rig.output.text, /Changed position: Persuaded by the others/);
  });

  it('/debate skips clarification entirely', async () => {
    const rig = await councilRig();
    const log = start(rig, 'Quick one', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.ok(!stepCalls(rig).includes('propose_clarifying_questions'));
  });

  it('goes straight to the debate when no clarification is needed', async () => {
    const rig = await councilRig({ script: { questions: 0 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.match(rig.output.text, /No clarification needed/);
  });

  it('a skipped question becomes an assumption that appears in the final answer', async () => {
    const rig = await councilRig();
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'skip' }, rig.deps);
    assert.equal(activeAssumptions(log.snapshot).length, 1);
    await runCouncilTurn(log, { kind: 'answer', text: 'Two weeks' }, rig.deps);
    assert.equal(log.state, 'completed');
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /### Assumptions\n\nAssumed: Recommended answer 1\.1|### Assumptions\n\n- Assumed: Recommended answer 1\.1/,
    );
    await assertValid(log);
  });

  it('skip-all logs an assumption per remaining question and goes to the final answer without a debate', async () => {
    const rig = await councilRig({ script: { questions: 3 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'answer', text: 'Only the API' }, rig.deps);
    await runCouncilTurn(log, { kind: 'skipAll' }, rig.deps);
    assert.equal(log.state, 'completed');
    const session = sessionView(log.snapshot);
    assert.equal(activeAssumptions(log.snapshot).length, 2);
    assert.equal(session.discussions.length, 0);
    assert.ok(!stepCalls(rig).includes('contribute_to_debate'));
    assert.equal(
      stepCalls(rig).filter(s => s === 'give_conclusion').length,
      3,
      'each persona concludes directly, in parallel',
    );
    assert.match(session.finalAnswer ?? '', /Recommended answer 1\.2/);
    assert.match(session.finalAnswer ?? '', /Recommended answer 1\.3/);
    await assertValid(log);
  });

  it('asks more questions as a new round, and refuses a fourth round with a clear reason', async () => {
    const rig = await councilRig({ script: { questions: 1, moreQuestions: 1 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'more' }, rig.deps);
    await runCouncilTurn(log, { kind: 'more' }, rig.deps);
    assert.equal(log.snapshot.context.clarificationRounds, 3);
    await assert.rejects(
      runCouncilTurn(log, { kind: 'more' }, rig.deps),
      (e: unknown) => e instanceof SessionRuleError && /limited to 3 rounds/.test(e.message),
    );
    assert.equal(log.snapshot.context.questions.length, 3);
    await assertValid(log);
  });

  it('revisits skipped questions: the question is asked again and its assumption withdrawn once answered', async () => {
    const rig = await councilRig({ script: { questions: 2 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'skip' }, rig.deps);
    await runCouncilTurn(log, { kind: 'revisit' }, rig.deps);
    await runCouncilTurn(log, { kind: 'answer', text: 'Answer to question 2' }, rig.deps);
    assert.equal(log.state, 'clarifying');
    assert.match(activeQuestion(log.snapshot)?.question ?? '', /question 1/);
    await runCouncilTurn(log, { kind: 'answer', text: 'Answer to question 1 after all' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.equal(activeAssumptions(log.snapshot).length, 0);
    await assertValid(log);
  });

  it('stops at the cycle limit with an explicit notice, then extends the debate on request', async () => {
    const rig = await councilRig({ script: { convergeAtCycle: 'never' } });
    const log = newCouncilSession(
      {
        request: 'Argue',
        userId: 'user-1',
        limits: { debateCycleLimit: 3, adminMaxDebateCycles: 5 },
        skipClarification: true,
      },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const session = sessionView(log.snapshot);
    assert.equal(session.debateCycles, 3);
    assert.equal(session.discussions.at(-1)?.status, 'limit_reached');
    assert.match(rig.output.text, /Debate limit reached.*3 cycles.*Extend the debate.*up to 5 cycles/s);
    assert.match(session.finalAnswer ?? '', /still prefers option A/);
    assert.match(session.finalAnswer ?? '', /Still contested when the debate stopped/);
    rig.output.clear();
    await runCouncilTurn(log, { kind: 'extend' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.equal(sessionView(log.snapshot).debateCycles, 5);
    assert.match(rig.output.text, /This is the maximum your settings allow/);
    await assert.rejects(runCouncilTurn(log, { kind: 'extend' }, rig.deps), SessionRuleError);
    await assertValid(log);
  });

  it('one debate cycle runs its personas in parallel and drafts the next cycle while the moderator reads', async () => {
    const rig = await councilRig({ protocol: 'thorough', script: { convergeAtCycle: 3 }, model: { latencyMs: 5 } });
    const log = start(rig, 'Parallel', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    // Cycle N+1 is requested before the moderator of cycle N (it does not wait for the verdict).
    const c = 'contribute_to_debate';
    assert.deepEqual(stepCalls(rig), [
      'select_personas',
      c,
      c,
      c,
      c,
      c,
      c,
      'moderate_cycle',
      c,
      c,
      c,
      'moderate_cycle',
      'moderate_cycle',
      'write_answer',
    ]);
    // Everyone agrees with everyone in cycle 3, so no cycle 4 is drafted ahead: nothing to discard.
    assert.equal(sessionView(log.snapshot).debateCycles, 3);
    assert.equal(sessionView(log.snapshot).messageTurns.filter(t => t.messageType === 'discussion').length, 9);
    assert.doesNotMatch(rig.output.text, /cycle 4/);
  });

  it('thorough: the re-forecast after the first vote counts the drafts already sent ahead, so its bound holds', async () => {
    // Cycle 2's drafts wait until the re-forecast line is out: at that moment they are sent and not yet paid.
    let release: () => void = () => undefined;
    const gate = new Promise<void>(resolve => (release = resolve));
    const script = councilResponder({ convergeAtCycle: 'never', dissenters: 2 });
    const rig = await councilRig({
      protocol: 'thorough',
      maxRequests: 24,
      responder: async (request, callIndex) => {
        const prompt = request.messages.map(messageText).join('\n');
        if (/This is debate cycle 2\./.test(prompt)) await gate;
        return script(request, callIndex);
      },
    });
    const progress = rig.deps.output.progress.bind(rig.deps.output);
    const deps = {
      ...rig.deps,
      output: {
        ...rig.deps.output,
        progress: (line: string) => {
          progress(line);
          if (/the debate now expects/.test(line)) release();
        },
        markdown: rig.deps.output.markdown.bind(rig.deps.output),
      },
    };
    const log = start(rig, 'Split', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, deps);
    const line = rig.output.parts.map(p => p.text).find(text => /the debate now expects/.test(text)) ?? '';
    const bound = Number(/at most (\d+) requests?/.exec(line)?.[1]);
    const debate = log.spent.requests - 1; // everything after select_personas
    assert.ok(debate > 7, `the debate went beyond cycle 1 (${debate} requests)`);
    assert.ok(bound >= debate, `re-forecast "${line}" vs ${debate} requests spent by the debate`);
  });

  it('does not draft ahead when every persona already agrees with every other', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: councilResponder({ convergeAtCycle: 2 }, step =>
        step === 'contribute_to_debate'
          ? {
              kind: 'value',
              value: {
                position: 'Same',
                argument: 'We agree.',
                keyPoints: ['Everyone agrees.'],
                confidence: 'high',
                changedPosition: false,
                // Every colleague, by the labels the speaker reads them under (anonymous peers).
                agreesWith: ['Position A', 'Position B', 'Position C'],
                concerns: [],
              },
            }
          : undefined,
      ),
    });
    const log = start(rig, 'Obvious', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    // Cycle 1 drafts are independent (no agreement yet), so cycle 2 is drafted ahead; cycle 2 is unanimous, so cycle 3 is not.
    assert.equal(stepCalls(rig).filter(s => s === 'contribute_to_debate').length, 6);
  });

  it('discards the speculative next cycle when the council converges', async () => {
    const rig = await councilRig({ protocol: 'thorough', script: { convergeAtCycle: 1 } });
    const log = start(rig, 'Easy', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    const session = sessionView(log.snapshot);
    assert.equal(session.debateCycles, 1);
    assert.equal(session.messageTurns.filter(t => t.messageType === 'discussion').length, 3);
    assert.doesNotMatch(rig.output.text, /cycle 2/);
  });

  it('stops on a failure every request would meet (rate limited): completed contributions are kept, the retry asks only the rest', async () => {
    let failOnce = true;
    const rig = await councilRig({
      responder: councilResponder({}, (step, request) => {
        const prompt = request.messages.map(m => (typeof m.content === 'string' ? m.content : '')).join('');
        if (step === 'contribute_to_debate' && failOnce && prompt.includes('You are Security Expert')) {
          failOnce = false;
          return {
            kind: 'error',
            error: new LanguageModelFailure('blocked', 'Rate limited'),
            after: [{ kind: 'text', text: '{"posi' }],
          };
        }
        return undefined;
      }),
    });
    const log = start(rig, 'Fragile', { skipClarification: true });
    await assert.rejects(
      runCouncilTurn(log, { kind: 'retry' }, rig.deps),
      (e: unknown) => e instanceof LanguageModelFailure && e.kind === 'blocked',
    );
    assert.equal(log.state, 'debating');
    const spokenBefore = sessionView(log.snapshot).messageTurns.filter(t => t.messageType === 'discussion').length;
    assert.equal(spokenBefore, 2, 'the two personas that answered are kept');
    const callsBefore = rig.model.requests.length;
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const firstRetry = rig.model.requests[callsBefore];
    assert.match(JSON.stringify(firstRetry?.messages), /You are Security Expert/);
    await assertValid(log);
  });

  it('goes on without a seat whose request fails on its own (a server error), and names it in the answer', async () => {
    const rig = await councilRig({
      responder: councilResponder({}, (step, request) => {
        const prompt = request.messages.map(m => (typeof m.content === 'string' ? m.content : '')).join('');
        if (step === 'contribute_to_debate' && prompt.includes('You are Security Expert') && /cycle 1\b/.test(prompt)) {
          return {
            kind: 'error',
            error: new LanguageModelFailure('unknown', 'Internal server error'),
            after: [{ kind: 'text', text: '{"posi' }],
          };
        }
        return undefined;
      }),
    });
    const log = start(rig, 'Fragile', { skipClarification: true });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const first = log.snapshot.context.discussions[0];
    assert.deepEqual(first?.status === 'in_progress' ? [] : first?.absent?.map(a => a.personaId), [
      'persona:security-expert',
    ]);
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /2 of 3 personas answered; the Security Expert's draft did not arrive: its request failed \(Internal server error\)/,
    );
    await assertValid(log);
  });

  it('repairs a malformed reply, and reports a reply that stays malformed as a clear error with the session kept', async () => {
    let attempts = 0;
    const rig = await councilRig({
      protocol: 'thorough',
      responder: councilResponder({}, step => {
        if (step !== 'propose_clarifying_questions') return undefined;
        attempts += 1;
        return attempts === 1
          ? '```json\n{"needsClarification": tru'
          : { kind: 'value', value: { needsClarification: true, questions: [{ question: 'Q?' }] } };
      }),
    });
    const log = start(rig);
    await assert.rejects(
      runCouncilTurn(log, { kind: 'retry' }, rig.deps),
      (e: unknown) =>
        e instanceof LanguageModelFailure &&
        e.kind === 'malformedReply' &&
        /propose_clarifying_questions/.test(e.message),
    );
    assert.equal(attempts, 3, 'one try and two repairs');
    assert.equal(log.state, 'created');
    assert.ok(log.snapshot.context.selection, 'the selection made before the failure is kept');
  });

  it('an empty reply is repaired', async () => {
    let first = true;
    const rig = await councilRig({
      responder: councilResponder({ questions: 0 }, step => {
        if (step === 'select_personas' && first) {
          first = false;
          return '';
        }
        return undefined;
      }),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
  });

  const cancellable = [
    ...['open_session', 'contribute_to_debate', 'write_answer'].map(step => ({ step, protocol: 'economy' as const })),
    ...['select_personas', 'propose_clarifying_questions', 'moderate_cycle'].map(step => ({
      step,
      protocol: 'thorough' as const,
    })),
  ];
  for (const { step, protocol } of cancellable) {
    it(`cancellation during ${step} (${protocol}) stops the turn and leaves a resumable session`, async () => {
      const cancel = cancellationSource();
      const rig = await councilRig({
        protocol,
        token: cancel.token,
        script: { questions: 0 },
        responder: councilResponder({ questions: 0 }, s => {
          if (s === step) cancel.cancel();
          return undefined;
        }),
      });
      const log = start(rig);
      await assert.rejects(runCouncilTurn(log, { kind: 'retry' }, rig.deps), CancelledError);
      assert.notEqual(log.state, 'completed');
      const resumed = await councilRig({ script: { questions: 0 } });
      const restored = SessionLog.restore(rig.persisted.at(-1) ?? log.stored);
      await runCouncilTurn(restored, { kind: 'retry' }, resumed.deps);
      assert.equal(restored.state, 'completed');
    });
  }

  it('cancel ends the session; nothing more can happen in it', async () => {
    const rig = await councilRig();
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'cancel' }, rig.deps);
    assert.equal(log.state, 'cancelled');
    await assert.rejects(runCouncilTurn(log, { kind: 'answer', text: 'late' }, rig.deps), SessionRuleError);
  });

  it('answers without an open question are refused with a reason', async () => {
    const rig = await councilRig({ script: { questions: 0 } });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await assert.rejects(runCouncilTurn(log, { kind: 'accept' }, rig.deps), /no open clarifying question/);
  });

  it('honours a user override: the named personas form the council without a selection call', async () => {
    const rig = await councilRig({ script: { questions: 0 } });
    const log = start(rig, 'Ask the Security Expert and the Performance Engineer: is bcrypt cost 12 too slow?');
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.ok(!stepCalls(rig).includes('select_personas'));
    const names = log.snapshot.context.participants.filter(p => p.type === 'persona').map(p => p.name);
    assert.deepEqual(names, ['Security Expert', 'Performance Engineer']);
  });
});
