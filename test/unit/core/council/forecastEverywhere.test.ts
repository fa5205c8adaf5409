import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import {
  COUNCIL_LEDGER_NAME,
  debateAhead,
  forecastDebate,
  measuredContributions,
  type DebateAheadFacts,
} from '../../../../src/core/council/debateForecast';
import { debateTokens, estimateDebate, expectDebate, openingTokens } from '../../../../src/core/council/debatePlan';
import { costEstimate, deliberationResultText, openingForecastLine } from '../../../../src/core/council/deliberation';
import type { SessionLog } from '../../../../src/core/council/sessionLog';
import { clarifyingReport } from '../../../../src/core/council/toolSession';
import { debateLimitNote } from '../../../../src/core/council/wording/limitNotes';
import { budgetStopNotice } from '../../../../src/core/council/wording/markdown';
import { SETTINGS_ADVICE } from '../../../../src/core/llm/spending/limitAdvice';
import { statusMarkdown } from '../../../../src/core/council/wording/transcript';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { MAX_REPAIRS_PER_REPLY } from '../../../../src/core/llm/repairBudget';
import { forecastText } from '../../../../src/core/llm/spending/forecastText';
import { MAX_PANEL } from '../../../../src/core/personas/select';
import { councilRig, type CouncilRig } from '../../../support/councilHarness';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 5 };
const REQUEST = 'Queue or cron for the nightly export?';
/** $3 / $15 per million tokens, as the rig's scripted model. */
const quote = (input: number, output: number) => (input * 3 + output * 15) / 10_000;

function facts(overrides: Partial<DebateAheadFacts> = {}): DebateAheadFacts {
  return { protocol: 'economy', limits: {}, seatCost: 1, contextTokens: 100, history: [], quote, ...overrides };
}

async function opened(rig: CouncilRig): Promise<SessionLog> {
  const log = newCouncilSession({ request: REQUEST, userId: 'u', limits: LIMITS }, rig.deps);
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  return log;
}

describe('both figures wherever a council forecast is shown', () => {
  it('forecastDebate: the bound plays out the debate rules, the expected figure is the prior, both priced', () => {
    const figures = forecastDebate({
      ...facts(),
      seats: 4,
      cycleLimit: 3,
      remaining: 11,
      measured: { input: 0, output: 0 },
    });
    assert.ok(figures);
    const bound = estimateDebate('economy', 4, 3, 11);
    const likely = expectDebate(bound, 'economy', 4, 100, { input: 0, output: 0 });
    const most = debateTokens(bound.total, 100, 4);
    assert.deepEqual(figures.bound, {
      requests: bound.total,
      tokens: most.input + most.output,
      credits: quote(most.input, most.output),
    });
    assert.deepEqual(figures.expected, {
      requests: likely.requests,
      tokens: likely.input + likely.output,
      credits: quote(likely.input, likely.output),
    });
    assert.ok(figures.expected.requests < figures.bound.requests);
  });

  it('/status says the debate still ahead (the council seated, the cycles and requests left), and nothing once answered', async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2, questions: 1 }, maxRequests: 12 });
    const log = await opened(rig);
    assert.equal(log.state, 'clarifying');
    const seats = log.snapshot.context.participants.filter(p => p.type === 'persona').length;
    const left = 12 - log.spent.requests;
    const ahead = debateAhead(log, facts({ limits: { maxRequests: 12 } }));
    assert.ok(ahead);
    assert.equal(ahead.bound.requests, estimateDebate('economy', seats, LIMITS.debateCycleLimit, left).total);
    const status = statusMarkdown(log.snapshot, { totals: log.spent }, ahead);
    assert.ok(
      status.includes(`- Debate still ahead: ${forecastText(ahead.expected, ahead.bound, 'more request')}\n`),
      status,
    );
    assert.match(
      status,
      /- Debate still ahead: about \d+ more requests and [\d.k]+ tokens \(≈ [\d.]+ credits\); at most \d+ more/,
    );
    // A lower limit lowers the bound: the forecast follows what the limits still pay for.
    const tight = debateAhead(log, facts({ limits: { maxRequests: log.spent.requests + 6 } }));
    assert.equal(tight?.bound.requests, estimateDebate('economy', seats, LIMITS.debateCycleLimit, 6).total);
    while (log.state === 'clarifying')
      await runCouncilTurn(log, { kind: 'answer', text: 'Latency matters.' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.equal(debateAhead(log, facts()), undefined);
    assert.ok(!statusMarkdown(log.snapshot, { totals: log.spent }).includes('Debate still ahead'));
  });

  it('before a council is chosen, the forecast seats the largest panel; an extension forecasts the cycles it adds', () => {
    const rig = { deps: { clock: { now: () => '2026-01-01T00:00:00.000Z' }, ids: { next: () => 's' } } };
    const log = newCouncilSession({ request: REQUEST, userId: 'u', limits: LIMITS }, rig.deps);
    const ahead = debateAhead(log, facts());
    assert.equal(ahead?.bound.requests, estimateDebate('economy', MAX_PANEL, 3, Number.MAX_SAFE_INTEGER).total);
    const one = debateAhead(log, facts({ cycles: 1 }));
    assert.equal(one?.bound.requests, MAX_PANEL + 1, 'one cycle of drafts and the answer');
  });

  it("council_open's result tells the agent the debate's two figures", async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2, questions: 1 } });
    const log = await opened(rig);
    const ahead = debateAhead(log, facts());
    assert.ok(ahead);
    const report = clarifyingReport(log.snapshot, { model: 'Scripted', spent: log.spent, ahead });
    assert.ok(
      report.includes(
        `The debate still ahead is forecast at ${forecastText(ahead.expected, ahead.bound, 'more request')} (\`council_deliberate\``,
      ),
      report,
    );
  });

  it("council_open's confirmation: the opening expected, at most every reply repaired", () => {
    const opening = 1;
    const most = opening * (1 + MAX_REPAIRS_PER_REPLY);
    const cost = costEstimate({ fewest: opening, most }, 200, 4, quote, {
      requests: opening,
      ...openingTokens(200, 8),
    });
    const line = openingForecastLine(opening, cost);
    assert.ok(cost.expected);
    assert.ok(
      line.startsWith(
        forecastText(cost.expected, { requests: most, tokens: cost.tokens.most, credits: cost.credits?.most }),
      ),
      line,
    );
    assert.match(line, /^about 1 request and .*; at most 3 requests and /);
    assert.match(openingForecastLine(2, undefined), /^2–6 model requests .* unknown cost/);
  });

  it("a tool run's result puts the expected requests beside the bound and what was spent", async () => {
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 2, questions: 0 } });
    const log = await opened(rig);
    const text = deliberationResultText({
      snapshot: log.snapshot,
      spent: log.spent,
      estimate: { fewest: 6, most: 11 },
      expected: 7,
    });
    assert.match(text, /Spent: .* \(forecast: about 7 requests, at most 11\)\./);
    const bare = deliberationResultText({
      snapshot: log.snapshot,
      spent: log.spent,
      estimate: { fewest: 6, most: 11 },
    });
    assert.match(bare, /\(estimated 6–11 requests\)\./);
  });

  it('a limit that refuses the council before its opening also says what the debate is forecast to cost', async () => {
    // 1 opening + 2 drafts + 1 answer do not fit in 3 requests: refused before anything is spent.
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 'never' }, maxRequests: 3 });
    const log = newCouncilSession({ request: REQUEST, userId: 'u', limits: LIMITS }, rig.deps);
    const refused = await runCouncilTurn(log, { kind: 'retry' }, rig.deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof LanguageModelFailure && refused.kind === 'budgetSpent', String(refused));
    assert.equal(rig.model.requests.length, 0);
    // The debate the user would get without the limit: the largest panel over the session's cycles.
    const bound = estimateDebate('economy', MAX_PANEL, LIMITS.debateCycleLimit, Number.MAX_SAFE_INTEGER);
    const expected = expectDebate(bound, 'economy', MAX_PANEL, 0, { input: 0, output: 0 });
    assert.match(
      refused.message,
      new RegExp(
        `The debate's forecast: about ${expected.requests} more requests and [\\d.k]+ tokens \\(≈ [\\d.]+ credits\\); at most ${bound.total} more requests and [\\d.k]+ tokens \\(≈ [\\d.]+ credits\\)\\. Raise`,
      ),
    );
  });

  it('a limit that ends the debate after the first vote says the re-forecast in its notice', async () => {
    // /debate: 1 selection + 4 drafts; 7 requests leave 2, too few for two seats and the answer.
    const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle: 'never' }, maxRequests: 7 });
    const log = newCouncilSession({ request: REQUEST, userId: 'u', limits: LIMITS, skipClarification: true }, rig.deps);
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.match(
      rig.output.text,
      /Spending limit reached:.*\(spent so far: [^)]*\)\. The debate's forecast after the first vote: about \d+ requests and [\d.k]+ tokens \(≈ [\d.]+ credits\); at most \d+ requests and [\d.k]+ tokens \(≈ [\d.]+ credits\) in all\. The answer/,
    );
  });

  it('the budget-stop notice carries the sentence it is given, and stands alone without one', () => {
    const rig = { deps: { clock: { now: () => '2026-01-01T00:00:00.000Z' }, ids: { next: () => 's' } } };
    const log = newCouncilSession({ request: REQUEST, userId: 'u', limits: LIMITS }, rig.deps);
    const note = debateLimitNote(
      { requests: 7, tokens: 9_000, credits: 1 },
      { requests: 11, tokens: 20_000, credits: 2 },
    );
    assert.ok(
      budgetStopNotice(log.snapshot, { totals: log.spent }, SETTINGS_ADVICE, note).includes(`). ${note} The answer`),
    );
    assert.ok(!budgetStopNotice(log.snapshot, { totals: log.spent }, SETTINGS_ADVICE).includes('forecast'));
  });
});

describe('measuredContributions (what a debate request is like, from the ledger)', () => {
  const line = (who: string, step: string, requests: number, inputTokens: number, outputTokens: number) => ({
    who,
    step,
    requests,
    inputTokens,
    outputTokens,
  });

  it("averages the personas' contributions only: not the opening, the moderator or the answer", () => {
    const measured = measuredContributions([
      line(COUNCIL_LEDGER_NAME, 'opening', 1, 2_400, 170),
      line('Senior Developer', 'cycle 1', 1, 1_500, 550),
      line('Security Expert', 'cycle 1', 1, 1_600, 540),
      line('Senior Developer', 'cycle 2', 2, 2_800, 1_100),
      line(COUNCIL_LEDGER_NAME, 'cycle 1', 1, 2_900, 90),
      line('Synthesis', 'answer', 1, 1_250, 700),
    ]);
    assert.deepEqual(measured, { input: Math.round(5_900 / 4), output: Math.round(2_190 / 4) });
  });

  it('zeros before any contribution, so the forecast uses its prior instead of the opening’s size', () => {
    assert.deepEqual(measuredContributions([line(COUNCIL_LEDGER_NAME, 'opening', 1, 2_400, 170)]), {
      input: 0,
      output: 0,
    });
  });
});
