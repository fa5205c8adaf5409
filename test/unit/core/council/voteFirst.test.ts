import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn, type TurnReport } from '../../../../src/core/council/councilTurn';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { ANSWER_HEADING } from '../../../../src/core/council/wording/markdown';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { councilResponder, councilRig, type CouncilRig } from '../../../support/councilHarness';
import { ANSWER_STEP, speakerOf, type CouncilScriptOptions } from '../../../support/councilScript';
import { messageText } from '../../../../src/core/llm/usage';
import { sessionView } from '../../../support/sessionViews';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 12 };

function start(rig: CouncilRig): SessionLog {
  return newCouncilSession(
    { request: 'Signed cookies or server-side sessions?', userId: 'u', limits: LIMITS },
    rig.deps,
  );
}

function cycleSeats(log: SessionLog): number[] {
  return log.snapshot.context.discussions.map(d => d.participatingPersonaIds.length);
}

describe('vote first, debate only where it matters', () => {
  it('first drafts that all back one option answer at once: 1 opening + 4 drafts + 1 answer', async () => {
    const rig = await councilRig({
      script: { personaIds: FOUR, questions: 0, convergeAtCycle: 1, decisionOptions: true },
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.equal(rig.model.requests.length, 6);
    assert.deepEqual(cycleSeats(log), [4]);
    assert.match(
      rig.output.text,
      /All 4 personas back option 2 \(server-side sessions in Redis\) with high or medium confidence: no debate needed\. `\/extend` debates anyway\./,
    );
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /\*\*Combined confidence:\*\* Strong agreement: 4 of 4 back option 2 \(server-side sessions in Redis\), high confidence\./,
    );
    // Every draft was asked for an option among the labels, "another answer" included.
    const draft = rig.model.requests.find(r => r.tools?.[0]?.name === 'contribute_to_debate');
    assert.match(JSON.stringify(draft?.tools?.[0]?.inputSchema), /"enum":\["1","2","another answer"\]/);
  });

  it('the thorough protocol settles agreeing first drafts too: no moderator, no second cycle', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      script: { personaIds: FOUR, questions: 0, convergeAtCycle: 1, decisionOptions: true },
    });
    const log = newCouncilSession(
      { request: 'Signed cookies or server-side sessions?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    // select_personas + 4 drafts + the answer.
    assert.equal(rig.model.requests.length, 6);
    assert.ok(!rig.model.requests.some(r => r.tools?.[0]?.name === 'moderate_cycle'));
    assert.match(rig.output.text, /All 4 personas back option 2 .* no debate needed/);
  });

  it('/extend still debates after agreeing first drafts: everyone who drafted speaks in cycle 2', async () => {
    const rig = await councilRig({
      script: { personaIds: FOUR, questions: 0, convergeAtCycle: 1, decisionOptions: true },
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    await runCouncilTurn(log, { kind: 'extend' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(cycleSeats(log), [4, 4]);
  });

  it('a split debates only among those who matter and stops when the vote settles; the dissent is carried verbatim', async () => {
    const rig = await councilRig({
      script: { personaIds: FOUR, questions: 0, convergeAtCycle: 2, decisionOptions: true, dissenters: 1 },
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    // 1 opening + 4 drafts + the one dissenter and one voice of the majority in cycle 2 + 1 answer.
    assert.equal(rig.model.requests.length, 8);
    assert.deepEqual(cycleSeats(log), [4, 2]);
    assert.doesNotMatch(rig.output.text, /no debate needed/);
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(answer, /Strong agreement: 4 of 4 back option 2/);
    // The vote is the option vote: each option with its voters and their confidence.
    assert.match(
      answer,
      /### The vote\n\n- \*\*option 2 \(server-side sessions in Redis\)\*\* \(4 of 4\): Senior Developer \(high\), [^\n]*\n\nNo one dissents\./,
    );
  });

  it('an unsettled council states its combined confidence and its strongest dissent in the answer', async () => {
    const rig = await councilRig({
      script: { personaIds: FOUR, questions: 0, convergeAtCycle: 'never', decisionOptions: true, dissenters: 1 },
      // 1 + 4 drafts leaves 2: not enough for a cycle of two and the answer.
      maxRequests: 7,
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /\*\*Combined confidence:\*\* Weak agreement: 3 of 4 back option 2 \(server-side sessions in Redis\), medium confidence; 1 backs option 1\./,
    );
    assert.match(answer, /Dissent: Senior Developer \(option 1 \(signed cookies\), medium\)\./);
    assert.match(
      answer,
      /\*\*Strongest dissent:\*\* Senior Developer \(backs option 1, medium confidence\): "Senior Developer's decisive fact in cycle \d\."/,
    );
  });
});

describe('honest when degraded', () => {
  const script: CouncilScriptOptions = { personaIds: FOUR, questions: 0, convergeAtCycle: 1, decisionOptions: true };

  it('a seat whose draft fails is named and the council answers without it', async () => {
    const rig = await councilRig({
      responder: councilResponder(script, (step, request) => {
        const prompt = request.messages.map(messageText).join('\n');
        if (step === 'contribute_to_debate' && speakerOf(prompt) === 'Security Expert')
          return { kind: 'error', error: new LanguageModelFailure('unknown', 'Internal server error') };
        return undefined;
      }),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /3 of 4 personas answered; the Security Expert's draft did not arrive: its request failed \(Internal server error\)/,
    );
    assert.match(answer, /3 of 4 back option 2/);
    assert.match(rig.output.text, /All 3 personas who answered \(of 4\) back option 2/);
    // The options, the absent seat and the first-vote settlement are stored and read back (optional fields).
    const restored = SessionLog.restore(JSON.parse(JSON.stringify(log.stored)));
    assert.deepEqual(restored.snapshot.context.discussions, log.snapshot.context.discussions);
    assert.deepEqual(restored.snapshot.context.selection?.options, [
      { label: '1', option: 'signed cookies' },
      { label: '2', option: 'server-side sessions in Redis' },
    ]);
    const first = restored.snapshot.context.discussions[0];
    assert.ok(first?.status === 'concluded' && first.settledByFirstVote === true);
    assert.doesNotMatch(
      answer,
      /Strong agreement/,
      'a missing seat weighs nothing: the agreement is not called strong',
    );
  });

  it("the answer's own request failing still answers from the vote, marked, and Try again writes it in full", async () => {
    let failAnswer = true;
    const rig = await councilRig({
      responder: councilResponder(script, step =>
        step === ANSWER_STEP && failAnswer
          ? { kind: 'error', error: new LanguageModelFailure('unknown', 'Service unavailable.') }
          : undefined,
      ),
    });
    const log = start(rig);
    const report: TurnReport = await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(report.answerPending?.reason, 'Service unavailable.');
    assert.match(report.answerPending?.answer ?? '', /^_Written from the vote;/);
    assert.equal(log.state, 'final');
    const shown = rig.output.text.slice(rig.output.text.indexOf(ANSWER_HEADING));
    assert.match(
      shown,
      /Written from the vote; the answer's own request failed: Service unavailable\. Press \*\*Try again\*\* \(`\/retry`\)/,
    );
    assert.match(shown, /\*\*The council backs option 2 \(server-side sessions in Redis\)\.\*\* Strong agreement/);
    assert.match(shown, /### Where each persona landed\n\n- \*\*Senior Developer:\*\* \S/);
    failAnswer = false;
    const before = rig.model.requests.length;
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.equal(rig.model.requests.length - before, 1, 'Try again spends only the answer');
  });
});
