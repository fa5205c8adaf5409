import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { ANSWER_HEADING } from '../../../../src/core/council/wording/markdown';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { councilResponder, councilRig, type CouncilRig } from '../../../support/councilHarness';
import { ANSWER_STEP, type CouncilScriptOptions } from '../../../support/councilScript';
import { sessionView } from '../../../support/sessionViews';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 5 };

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

/** Each persona speaks at most once per cycle: a resumed session repeats nothing it had done. */
function assertNothingRepeated(log: SessionLog): void {
  const spoken = log.snapshot.context.messageTurns
    .filter(t => t.messageType === 'discussion')
    .map(t => `${t.senderId}@${t.relatedCycleOrRound.number}`);
  assert.equal(new Set(spoken).size, spoken.length, `repeated contributions: ${spoken.join(', ')}`);
}

describe('council spending in credits', () => {
  const script: CouncilScriptOptions = { personaIds: FOUR, convergeAtCycle: 'never', questions: 1 };

  for (const protocol of ['economy', 'thorough'] as const) {
    it(`${protocol}: no credit limit from tiny to large is exceeded; a stop says why and Try again finishes once it is raised @slow`, async () => {
      const unlimited = await councilRig({ script, protocol });
      const free = newCouncilSession({ request: 'Queue or cron?', userId: 'u', limits: LIMITS }, unlimited.deps);
      assert.equal(await playOut(free, unlimited), undefined);
      const full = free.spent.credits;
      assert.ok(full > 0);
      for (const share of [0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1, 1.5]) {
        const maxCredits = full * share;
        const rig = await councilRig({ script, protocol, maxCredits });
        const log = newCouncilSession({ request: 'Queue or cron?', userId: 'u', limits: LIMITS }, rig.deps);
        const stopped = await playOut(log, rig);
        const label = `${protocol}, ${maxCredits.toFixed(3)} credits (${share} of a full session)`;
        assert.ok(log.spent.credits <= maxCredits, `${label}: spent ${log.spent.credits}`);
        assert.equal(log.spent.requests, rig.model.requests.length, `${label}: the ledger counts every request`);
        if (stopped === undefined) {
          assert.equal(log.state, 'completed', label);
          continue;
        }
        assert.ok(
          stopped instanceof LanguageModelFailure && stopped.kind === 'budgetSpent',
          `${label}: ${String(stopped)}`,
        );
        assert.match(stopped.message, /This session .*council\.budget\.max(Credits|Requests).*press Try again/, label);
        if (rig.output.text.includes(ANSWER_HEADING)) {
          // The answer section is never empty: where the council stands, from the session.
          const after = rig.output.text.slice(rig.output.text.lastIndexOf(ANSWER_HEADING) + ANSWER_HEADING.length);
          assert.match(after.trim(), /^\S/, `${label}: an empty answer section`);
        }
        const raised = await councilRig({ script, protocol });
        const restored = SessionLog.restore(JSON.parse(JSON.stringify(rig.persisted.at(-1) ?? log.stored)));
        assert.deepEqual(restored.spent, log.spent, `${label}: the ledger is stored`);
        assert.equal(await playOut(restored, raised), undefined, label);
        assert.equal(restored.state, 'completed', label);
        assertNothingRepeated(restored);
      }
    });
  }

  it('a limit that cannot pay for every first draft seats those it can, keeps the answer, and names who was left out', async () => {
    // 1 opening + 4 drafts + 1 answer = 6; with 5 the fourth draft is not sent: the answer's request is kept.
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 'never' }, maxRequests: 5 });
    const log = newCouncilSession(
      { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    assert.equal(await playOut(log, rig), undefined);
    assert.equal(log.state, 'completed');
    assert.equal(rig.model.requests.length, 5);
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /3 of 4 personas answered; the QA Engineer's draft did not arrive: the spending limit left no room for its request and the answer/,
    );
    assert.match(answer, /### Where each persona landed\n\n- \*\*Senior Developer:\*\* \S/);
  });

  it('a limit that leaves no request for the written answer still answers from the session, marked, and Try again writes it', async () => {
    // The answer's first attempt fails; on Try again the limit (6) leaves no request for it.
    const script = { personaIds: FOUR, convergeAtCycle: 'never' as const };
    const failing = await councilRig({
      responder: councilResponder(script, step =>
        step === ANSWER_STEP
          ? { kind: 'error', error: new LanguageModelFailure('unknown', 'Unavailable.') }
          : undefined,
      ),
      maxRequests: 6,
    });
    const log = newCouncilSession(
      { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: true },
      failing.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, failing.deps);
    const rig = await councilRig({ script, maxRequests: 6 });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'final', 'the session waits for its written answer');
    const text = rig.output.text;
    const answer = text.slice(text.indexOf(ANSWER_HEADING));
    assert.match(
      answer,
      /Written from the vote; the answer's own request failed: This session has used 6 of its 6 model requests\. The written answer needs 1 more request\./,
    );
    assert.match(answer, /### Where each persona landed\n\n- \*\*Senior Developer:\*\* \S/);
    assert.match(answer, /### Assumptions/);
    const raised = await councilRig({ script, maxRequests: 7 });
    await runCouncilTurn(log, { kind: 'retry' }, raised.deps);
    assert.equal(log.state, 'completed');
    assert.equal(raised.model.requests.length, 1, 'Try again spends only the answer');
    assert.match(sessionView(log.snapshot).finalAnswer ?? '', /Go with option B/);
  });

  it('progress lines carry the running total once the turn has spent something', async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2 } });
    const log = newCouncilSession(
      { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await playOut(log, rig);
    const lines = rig.output.parts.filter(p => p.kind === 'progress').map(p => p.text);
    assert.ok(!/AI credits/.test(lines[0] ?? ''), `the first line has nothing spent yet: ${lines[0]}`);
    assert.ok(
      lines.some(line => /\(\d+ requests? · [\d.k]+ tokens · about [\d.]+ AI credits\)$/.test(line)),
      lines.join('\n'),
    );
  });

  it('/status and the transcript show the ledger: who spent what in which step, on which model', async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2 } });
    const log = newCouncilSession(
      { request: 'Queue or cron?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await playOut(log, rig);
    const who = new Set(log.ledger.entries.map(l => `${l.who} / ${l.step}`));
    assert.ok(who.has('Council / opening'), [...who].join(', '));
    assert.ok(who.has('Security Expert / cycle 1'), [...who].join(', '));
    assert.ok(who.has('Security Expert / cycle 2'), [...who].join(', '));
    assert.ok(who.has('Synthesis / answer'), [...who].join(', '));
    const total = log.ledger.entries.reduce((sum, l) => sum + l.requests, 0);
    assert.equal(total, rig.model.requests.length);
  });
});
