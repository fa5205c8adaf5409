import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { estimateDebate, expectDebate } from '../../../../src/core/council/debatePlan';
import { councilRig } from '../../../support/councilHarness';
import { sessionView } from '../../../support/sessionViews';

/*
 * Issue 31's credit scenarios: `/debate` on a model priced $30 / $150 per million tokens (a `council.pricing.models`
 * override, through PriceBook), four personas. Before: 50 credits spent ~12 on two drafts and showed an error box;
 * 90 spent ~29 and showed the same error. Now nothing is spent that cannot become an answer.
 */
const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 10 };
const PRICE = { input: 30, output: 150 };

async function debate(maxCredits: number) {
  const rig = await councilRig({
    script: { personaIds: FOUR, convergeAtCycle: 'never', decisionOptions: true, dissenters: 2 },
    maxCredits,
    price: PRICE,
  });
  const log = newCouncilSession(
    { request: 'Queue or cron for the nightly export?', userId: 'u', limits: LIMITS, skipClarification: true },
    rig.deps,
  );
  const error = await runCouncilTurn(log, { kind: 'retry' }, rig.deps).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { rig, log, error };
}

describe('credit limits at $30/$150 per million tokens (issue 31)', () => {
  it('a limit below the smallest useful council says so before spending anything', async () => {
    const { rig, log, error } = await debate(50);
    assert.ok(error instanceof LanguageModelFailure && error.kind === 'budgetSpent', String(error));
    assert.equal(rig.model.requests.length, 0, 'nothing was spent');
    assert.equal(log.spent.credits, 0);
    console.log(`      50 credits: ${error.message}`);
    assert.match(
      error.message,
      /^This session needs about \d+ AI credits for its smallest useful council \(the opening, the first drafts of 2 personas and the answer\) \(4 requests; each reserves up to 1,000 output tokens while it runs\); its limit is 50 AI credits\. Nothing was spent on it\. The debate's forecast: .*\. Raise `council\.budget\.maxCredits` in the settings or pick a cheaper model/,
    );
    // The limit decides on the smallest council; the message also says what the debate needs without it.
    const bound = estimateDebate('economy', 4, LIMITS.debateCycleLimit, Number.MAX_SAFE_INTEGER);
    const expected = expectDebate(bound, 'economy', 4, 0, { input: 0, output: 0 });
    assert.match(
      error.message,
      new RegExp(
        `The debate's forecast: about ${expected.requests} more requests and [\\d.k]+ tokens \\(≈ \\d+ credits\\); at most ${bound.total} more requests and `,
      ),
    );
  });

  for (const maxCredits of [90, 120]) {
    it(`${maxCredits} credits: the drafts that fit run, the answer is kept, and the limit is named`, async () => {
      const { rig, log, error } = await debate(maxCredits);
      assert.equal(error, undefined, String(error));
      assert.equal(log.state, 'completed');
      assert.ok(log.spent.credits <= maxCredits, `spent ${log.spent.credits}`);
      const answer = sessionView(log.snapshot).finalAnswer ?? '';
      assert.match(answer, /\*\*Combined confidence:\*\*/);
      assert.ok(rig.model.requests.length >= 4);
      console.log(
        `      ${maxCredits} credits: ${rig.model.requests.length} requests, ${log.spent.credits.toFixed(1)} credits; cycles ${log.snapshot.context.discussions.map(d => d.participatingPersonaIds.length).join('+')}; ${/\d of 4 personas answered[^.]*/.exec(answer)?.[0] ?? 'all 4 answered'}`,
      );
    });
  }
});
