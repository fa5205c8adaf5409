import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { messageText } from '../../../../src/core/llm/usage';
import { builtInPersonas, councilResponder, councilRig, type CouncilRig } from '../../../support/councilHarness';
import { councilStep, speakerOf, type CouncilScriptOptions } from '../../../support/councilScript';
import { requestedName } from '../../../support/scriptedModel';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { sessionView } from '../../../support/sessionViews';

/*
 * The thorough protocol, honest when degraded: a seat whose own request fails is recorded absent and the council goes
 * on without it (as in the economy protocol); a failure every later request would meet stops the turn.
 */

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 12 };

function start(rig: CouncilRig): SessionLog {
  return newCouncilSession(
    { request: 'Signed cookies or server-side sessions?', userId: 'u', limits: LIMITS, skipClarification: true },
    rig.deps,
  );
}

async function assertValid(log: SessionLog): Promise<void> {
  const personaNames = new Set((await builtInPersonas()).map(p => p.name));
  assert.deepEqual(validateSession(sessionView(log.snapshot), { personaNames }), []);
}

function steps(rig: CouncilRig): string[] {
  return rig.model.requests.map(r =>
    councilStep(
      requestedName({ messages: r.messages, tools: r.tools, toolMode: r.toolMode }),
      r.messages.map(messageText).join('\n'),
    ),
  );
}

/** The Security Expert's contribution fails with `error` in the cycles `failIn` says. */
function securityFails(
  script: CouncilScriptOptions,
  error: () => LanguageModelFailure,
  failIn: (prompt: string) => boolean = () => true,
) {
  return councilResponder(script, (step, request) => {
    const prompt = request.messages.map(messageText).join('\n');
    if (step === 'contribute_to_debate' && speakerOf(prompt) === 'Security Expert' && failIn(prompt))
      return { kind: 'error', error: error() };
    return undefined;
  });
}

function absentIds(log: SessionLog, index: number): readonly string[] | undefined {
  const d = log.snapshot.context.discussions[index];
  return d?.status === 'in_progress' ? undefined : d?.absent?.map(a => a.personaId);
}

describe('the thorough protocol, honest when degraded', () => {
  it('a seat whose first draft fails (server error) is absent; the council debates and answers without it, and names it', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: securityFails(
        { convergeAtCycle: 2 },
        () => new LanguageModelFailure('unknown', 'Internal server error'),
      ),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(absentIds(log, 0), ['persona:security-expert']);
    // Cycle 2 seats those who drafted: the absent seat is not asked again.
    const second = log.snapshot.context.discussions[1];
    assert.ok(second);
    assert.equal(second.participatingPersonaIds.length, 2);
    assert.ok(!second.participatingPersonaIds.includes('persona:security-expert'));
    assert.equal(steps(rig).filter(s => s === 'moderate_cycle').length, 2, 'the moderator still judges each cycle');
    assert.match(
      rig.output.text,
      /2 of 3 personas answered in this cycle; the council goes on without the others \(Security Expert: its request failed \(Internal server error\)\)/,
    );
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /2 of 3 personas answered; the Security Expert's draft did not arrive: its request failed \(Internal server error\)/,
    );
    const restored = SessionLog.restore(JSON.parse(JSON.stringify(log.stored)));
    assert.deepEqual(restored.snapshot.context.discussions, log.snapshot.context.discussions);
    await assertValid(log);
  });

  it('a reply drafted ahead for cycle 2 that fails (content refusal) leaves that seat absent from cycle 2 only; its earlier position stands', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: securityFails(
        { convergeAtCycle: 2 },
        () => new LanguageModelFailure('unknown', 'The response was filtered by the content policy'),
        prompt => /This is debate cycle 2\b/.test(prompt),
      ),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(absentIds(log, 0), undefined);
    assert.deepEqual(absentIds(log, 1), ['persona:security-expert']);
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /3 of 3 personas answered; the Security Expert's reply in cycle 2 did not arrive \(its request failed \(The response was filtered by the content policy\)\); its earlier position stands/,
    );
    await assertValid(log);
  });

  it('agreeing first drafts settle without the failed seat, and the answer says 3 of 4 answered', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: securityFails(
        { personaIds: FOUR, questions: 0, convergeAtCycle: 1, decisionOptions: true },
        () => new LanguageModelFailure('unknown', 'Internal server error'),
      ),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.ok(!steps(rig).includes('moderate_cycle'), 'settled by the first vote: no moderator');
    const first = log.snapshot.context.discussions[0];
    assert.ok(first?.status === 'concluded' && first.settledByFirstVote === true);
    assert.deepEqual(absentIds(log, 0), ['persona:security-expert']);
    const answer = sessionView(log.snapshot).finalAnswer ?? '';
    assert.match(
      answer,
      /3 of 4 personas answered; the Security Expert's draft did not arrive: its request failed \(Internal server error\)/,
    );
    assert.match(answer, /3 of 4 back option 2/);
    assert.doesNotMatch(answer, /Strong agreement/, 'a missing seat weighs nothing');
    await assertValid(log);
  });

  it('a seat the spending limit refuses is absent, named as refused by the limit', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: securityFails(
        { convergeAtCycle: 1 },
        () => new LanguageModelFailure('budgetSpent', 'The spending limit refused this request.'),
      ),
    });
    const log = start(rig);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.match(
      sessionView(log.snapshot).finalAnswer ?? '',
      /2 of 3 personas answered; the Security Expert's draft did not arrive: its request was refused by the spending limit/,
    );
  });

  for (const kind of ['rateLimited', 'quotaExceeded', 'noPermissions', 'notFound'] as const) {
    it(`a failure every later request would meet (${kind}) still stops the turn; the others' drafts are kept and Try again asks only the rest`, async () => {
      let fail = true;
      const rig = await councilRig({
        protocol: 'thorough',
        responder: securityFails(
          { convergeAtCycle: 1 },
          () => new LanguageModelFailure(kind, `Failure: ${kind}`),
          () => fail,
        ),
      });
      const log = start(rig);
      await assert.rejects(
        runCouncilTurn(log, { kind: 'retry' }, rig.deps),
        (e: unknown) => e instanceof LanguageModelFailure && e.kind === kind,
      );
      assert.equal(log.state, 'debating');
      assert.equal(sessionView(log.snapshot).messageTurns.filter(t => t.messageType === 'discussion').length, 2);
      assert.ok(!steps(rig).includes('moderate_cycle'), 'nothing after the failed cycle was asked');
      fail = false;
      const before = rig.model.requests.length;
      await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
      assert.equal(log.state, 'completed');
      assert.equal(
        speakerOf(messageText(rig.model.requests[before]?.messages[0] ?? { role: 'user', content: '' })),
        'Security Expert',
      );
      assert.equal(absentIds(log, 0), undefined, 'nobody is absent: the retry drafted the missing seat');
      await assertValid(log);
    });
  }

  it('when every seat fails on its own, the turn stops with the failure (nothing to conclude from)', async () => {
    const rig = await councilRig({
      protocol: 'thorough',
      responder: councilResponder({ convergeAtCycle: 1 }, step =>
        step === 'contribute_to_debate'
          ? { kind: 'error', error: new LanguageModelFailure('unknown', 'Internal server error') }
          : undefined,
      ),
    });
    const log = start(rig);
    await assert.rejects(
      runCouncilTurn(log, { kind: 'retry' }, rig.deps),
      (e: unknown) => e instanceof LanguageModelFailure && /Internal server error/.test(e.message),
    );
    assert.equal(log.state, 'debating');
  });
});
