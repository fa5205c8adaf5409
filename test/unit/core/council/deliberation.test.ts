import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import {
  confirmationMessage,
  costEstimate,
  deliberationPlan,
  deliberationResultText,
  DeliberationInputSchema,
  invocationMessage,
  expectedRequests,
  expectedSpend,
  requestEstimate,
} from '../../../../src/core/council/deliberation';
import { CancelledError } from '../../../../src/core/llm/languageModel';
import { cancellationSource } from '../../../support/scriptedModel';
import { builtInPersonas, councilRig } from '../../../support/councilHarness';
import type { CouncilScriptOptions } from '../../../support/councilScript';
import { debateOutcome } from '../../../support/debateOutcomes';
import { openingTokens } from '../../../../src/core/council/debatePlan';

/** Runs the scripted council the way the tool does: no clarifying questions, `cycles` as the limit. */
async function deliberate(request: string, cycles: number, script: CouncilScriptOptions) {
  const rig = await councilRig({ script });
  const log = newCouncilSession(
    {
      request,
      userId: 'agent',
      limits: { maxClarificationRounds: 3, debateCycleLimit: cycles, adminMaxDebateCycles: 10 },
      skipClarification: true,
    },
    rig.deps,
  );
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  return { rig, log };
}

describe('council_deliberate (vscode-free part)', () => {
  describe('the request estimate', () => {
    it('thorough: selection, every persona every cycle, a moderator call per cycle and the answer', () => {
      assert.deepEqual(requestEstimate({ named: 0, available: 8 }, 3, 0, 'thorough'), {
        fewest: 1 + 2 + 1 + 1,
        most: 1 + 4 * 3 + 3 + 1,
      });
      assert.deepEqual(requestEstimate({ named: 2, available: 8 }, 2, 0, 'thorough'), {
        fewest: 2 + 1 + 1,
        most: 2 * 2 + 2 + 1,
      });
    });

    it('economy: selection, every persona drafts, those still in disagreement answer each other, then the answer', () => {
      assert.deepEqual(requestEstimate({ named: 0, available: 8 }, 3), { fewest: 1 + 2 + 1, most: 1 + 4 * 3 + 1 });
      assert.deepEqual(requestEstimate({ named: 2, available: 8 }, 2), { fewest: 2 + 1, most: 2 * 2 + 1 });
    });

    it('the budget caps the plan: the last cycle seats only as many as the budget still pays for, the answer is kept', () => {
      // 1 selection + 4 drafts + 4 + 2 (cycle 3 trimmed to two personas) + 1 answer = 12.
      assert.deepEqual(requestEstimate({ named: 0, available: 8 }, 3, 0, 'economy', 12), { fewest: 4, most: 12 });
    });

    it('has no selection call when there is nothing to choose', () => {
      assert.deepEqual(requestEstimate({ named: 0, available: 2 }, 1), { fewest: 3, most: 3 });
    });

    it('counts `lookupRounds` look-up requests more per contribution when personas are grounded in the workspace', () => {
      assert.deepEqual(requestEstimate({ named: 2, available: 8 }, 2, 2), { fewest: 2 * 2 + 1, most: 2 * 3 * 2 + 1 });
    });

    for (const protocol of ['economy', 'thorough'] as const) {
      for (const budget of [undefined, 12, 9]) {
        it(`${protocol}, budget ${budget ?? 'none'}: equals what a debate that never converges really costs`, async () => {
          const personas = await builtInPersonas();
          const plan = deliberationPlan({ question: 'Queue or cron?' }, personas, 3, 10, 0, { protocol, budget });
          const rig = await councilRig({
            script: {
              convergeAtCycle: 'never',
              personaIds: ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'],
            },
            protocol,
            maxRequests: budget,
          });
          const log = newCouncilSession(
            {
              request: plan.request,
              userId: 'agent',
              limits: { debateCycleLimit: plan.cycles, adminMaxDebateCycles: 10 },
              skipClarification: true,
            },
            rig.deps,
          );
          await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
          assert.equal(log.state, 'completed');
          const calls = rig.model.requests.length;
          assert.equal(calls, plan.estimate.most, `${calls} calls, estimate ${plan.estimate.most}`);
          assert.equal(log.requestsUsed, calls, 'the session counts every request it made');
        });
      }
    }
  });

  describe('the expected figure of a tool call (the one the chat shows)', () => {
    const agreed = debateOutcome({ outlook: 'agree', outputTokens: 3_000 });
    const panel = { named: 0, available: 8 };

    it("a new session: the selection and the debate as this workspace's debates went, their tokens as measured", () => {
      const prior = expectedSpend(100, panel, 3, 0, 'economy', 12, { history: [] });
      const learnt = expectedSpend(100, panel, 3, 0, 'economy', 12, { history: [agreed, agreed] });
      assert.equal(prior.requests, 1 + 4 + 2 + 1);
      assert.equal(learnt.requests, 1 + 4 + 1);
      const selection = openingTokens(100, 8);
      assert.equal(learnt.input - selection.input, 8_000);
      assert.equal(learnt.output - selection.output, 3_000);
      assert.equal(expectedRequests(panel, 3, 0, 'economy', 12, { history: [agreed] }), learnt.requests);
    });

    it('a continued session: its own read decides (a standoff runs to the bound), and no selection', () => {
      const seated = { named: 4, available: 4 };
      const bound = requestEstimate(seated, 3, 0, 'economy', 11);
      const standoff = expectedSpend(100, seated, 3, 0, 'economy', 11, { history: [agreed], outlook: 'standoff' });
      assert.equal(standoff.requests, bound.most);
      const agree = expectedSpend(100, seated, 3, 0, 'economy', 11, { history: [agreed], outlook: 'agree' });
      assert.equal(agree.requests, 4 + 1);
    });

    it("the plan's expected requests are the same computation's", async () => {
      const personas = await builtInPersonas();
      const facts = { history: [agreed] };
      const plan = deliberationPlan({ question: 'Queue or cron?' }, personas, 3, 10, 0, { budget: 12, facts });
      assert.equal(plan.expected, expectedSpend(100, plan.panel, plan.cycles, 0, 'economy', 12, facts).requests);
      assert.equal(plan.expected, 1 + 4 + 1);
    });
  });

  describe('the plan', () => {
    it('resolves persona ids, reports unknown ones and puts the context after the question', async () => {
      const personas = await builtInPersonas();
      const plan = deliberationPlan(
        {
          question: ' JWT or sessions? ',
          context: 'One region, 10k users.',
          personas: ['security-expert', 'nobody', 'security-expert', 'software-architect'],
        },
        personas,
        10,
        10,
      );
      assert.deepEqual(
        plan.named.map(p => p.id),
        ['security-expert', 'software-architect'],
      );
      assert.deepEqual(plan.unknownIds, ['nobody']);
      assert.equal(plan.request, 'JWT or sessions?\n\nContext:\nOne region, 10k users.');
      assert.equal(plan.estimate.most, 2 * 10 + 1);
    });

    it('keeps maxCycles within 1 and the configured maximum, defaulting to the configured limit', async () => {
      const personas = await builtInPersonas();
      assert.equal(deliberationPlan({ question: 'q', maxCycles: 50 }, personas, 4, 6).cycles, 6);
      assert.equal(deliberationPlan({ question: 'q', maxCycles: 2 }, personas, 4, 6).cycles, 2);
      assert.equal(deliberationPlan({ question: 'q' }, personas, 4, 6).cycles, 4);
    });

    it('rejects an input without a question', () => {
      assert.equal(DeliberationInputSchema.safeParse({ context: 'x' }).success, false);
      assert.equal(DeliberationInputSchema.safeParse({ question: '  ' }).success, false);
      assert.equal(DeliberationInputSchema.safeParse({ question: 'Why?', maxCycles: 0 }).success, false);
    });
  });

  describe('the messages before a run', () => {
    it('says what runs and what it may cost', async () => {
      const personas = await builtInPersonas();
      const plan = deliberationPlan(
        { question: 'JWT or sessions?', personas: ['security-expert', 'software-architect', 'ghost'], maxCycles: 2 },
        personas,
        10,
        10,
      );
      const { title, message } = confirmationMessage(plan, 'GPT-5 mini');
      assert.match(title, /Council/);
      assert.match(message, /Security Expert, Software Architect \(as requested\)/);
      assert.match(message, /ghost/);
      assert.match(message, /Model: GPT-5 mini\./);
      assert.match(message, /Up to 2 debate cycles/);
      assert.match(confirmationMessage(plan, undefined).message, /Model: none is available/);
      assert.match(message, /- 3–5 model requests/, 'economy: 2 drafts, 2 more if they still disagree, 1 answer');
      const thorough = deliberationPlan(
        { question: 'q', personas: ['security-expert', 'software-architect'], maxCycles: 2 },
        personas,
        10,
        10,
        0,
        { protocol: 'thorough' },
      );
      assert.deepEqual(thorough.estimate, { fewest: 4, most: 7 }, 'thorough: plus one moderator request per cycle');
      const capped = deliberationPlan(
        { question: 'q', personas: ['security-expert', 'software-architect'], maxCycles: 5 },
        personas,
        10,
        10,
        0,
        { budget: 6 },
      );
      assert.equal(
        capped.estimate.most,
        5,
        'the budget caps the plan: 2 drafts, 2 more, 1 answer (a third cycle would leave no answer)',
      );
      assert.match(message, /billed by tokens × the model's price/);
      const cost = costEstimate(plan.estimate, 100, 2, (input, output) => (input * 3 + output * 15) / 10_000);
      assert.deepEqual(cost.tokens, { fewest: 3 * 2_100 + 2_700, most: 5 * 2_100 + 3_900 });
      assert.match(
        confirmationMessage(plan, 'GPT-5 mini', cost).message,
        /requests.*: about 9\.0k–14k tokens, [\d.]+–[\d.]+ AI credits\./,
      );
      assert.equal(plan.expected, 2 + 2 + 1, 'expected: 2 drafts, one later cycle of both, the answer');
      const likely = expectedSpend(100, plan.panel, plan.cycles, 0, 'economy', 6, { history: [] });
      assert.equal(likely.requests, plan.expected, 'one computation for the requests and their tokens');
      const withExpected = costEstimate(
        plan.estimate,
        100,
        2,
        (input, output) => (input * 3 + output * 15) / 10_000,
        likely,
      );
      assert.match(
        confirmationMessage(plan, 'GPT-5 mini', withExpected).message,
        /- about 5 requests and [\d.]+k tokens \(≈ [\d.]+ credits\); at most 5 requests and 14k tokens \(≈ [\d.]+ credits\) \(at least 3 if/,
        'the confirmation gives the expected figure and the bound',
      );
      // A continuation (extend) of a two-persona session: the same prior gives its expected figure.
      const extend = requestEstimate({ named: 2, available: 2 }, 2);
      const extendExpected = expectedRequests({ named: 2, available: 2 }, 2);
      const extendCost = costEstimate(
        extend,
        100,
        2,
        (input, output) => (input * 3 + output * 15) / 10_000,
        expectedSpend(100, { named: 2, available: 2 }, 2, 0, 'economy', undefined, { history: [] }),
      );
      const continued = confirmationMessage(
        { request: 'JWT or sessions?', named: [], unknownIds: [], cycles: 2, estimate: extend },
        'GPT-5 mini',
        extendCost,
        { sessionId: 's1', council: 'Security Expert, Software Architect' },
      ).message;
      assert.match(continued, /continue session s1/);
      assert.match(
        continued,
        new RegExp(`- about ${extendExpected} requests and .*; at most ${extend.most} requests and `),
        continued,
      );
      const unpriced = costEstimate(plan.estimate, 100, 2, () => undefined);
      assert.match(confirmationMessage(plan, 'Local', unpriced).message, /the model's price is unknown/);
      assert.equal(invocationMessage({ question: 'JWT or sessions?' }), 'Consulting the council: JWT or sessions?');
    });
  });

  describe('the result text', () => {
    it('has the answer, each conclusion, the disagreements, the assumptions, the requests used and the session', async () => {
      const { rig, log } = await deliberate('with Security Expert, Software Architect: JWT or sessions?', 2, {
        convergeAtCycle: 'never',
      });
      const text = deliberationResultText({
        snapshot: log.snapshot,
        spent: log.spent,
        estimate: { fewest: 4, most: 7 },
        unknownIds: ['ghost'],
      });
      assert.match(text, /## The council's answer/);
      assert.match(text, /### Where each persona landed/);
      assert.match(text, /### Still contested when the debate stopped/);
      assert.match(text, /### Assumptions/);
      assert.match(
        text,
        new RegExp(
          `Spent: ${rig.model.requests.length} requests · [\\d.k]+ tokens .* AI credits \\(estimated 4–7 requests\\)\\.`,
        ),
      );
      assert.match(text, /Council: Security Expert, Software Architect\./);
      // The vote, the confidence and what is open are stated every time.
      assert.match(text, /^Vote: .*\(confidence (high|medium|low)(, (high|medium|low))*\).*; dissent: .*\.$/m);
      assert.match(text, /^Open disagreements: Not yet agreed between: Security Expert – Software Architect\.$/m);
      assert.match(text, /No clarifying questions were asked/);
      assert.match(text, /ghost/);
      assert.ok(text.includes(`Council session ${log.sessionId} is saved`));
      assert.match(text, /Export Session Transcript/);
    });

    it('says the council did not finish, with what it had, when the run stopped', async () => {
      const source = cancellationSource();
      const rig = await councilRig({
        token: source.token,
        responder: () => {
          source.cancel();
          throw new CancelledError();
        },
      });
      const log = newCouncilSession(
        { request: 'q', userId: 'agent', limits: { debateCycleLimit: 2 }, skipClarification: true },
        rig.deps,
      );
      await assert.rejects(runCouncilTurn(log, { kind: 'retry' }, rig.deps));
      const text = deliberationResultText({
        snapshot: log.snapshot,
        spent: log.spent,
        stopped: 'It was cancelled. The session is saved.',
      });
      assert.match(text, /The council did not finish\. It was cancelled/);
      assert.match(text, /^Vote: none yet \(the council did not finish\)\.$/m);
      assert.match(text, /^Open disagreements: not settled \(the council did not finish\)\.$/m);
      assert.match(text, /No debate cycle was completed/);
      assert.doesNotMatch(text, /The council's answer/);
    });
  });
});
