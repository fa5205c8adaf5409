import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLimitAdvice } from '../../../src/cli/commandLimitAdvice';
import { newCouncilSession } from '../../../src/core/council/councilTurn';
import { budgetStopNotice } from '../../../src/core/council/wording/markdown';
import { DEMO_DECISION } from '../../../src/cli/demo/demoModel';
import { LanguageModelFailure, neverCancelled } from '../../../src/core/llm/languageModel';
import { SpendingGovernor, type SpendingScope } from '../../../src/core/llm/spending/governor';
import { SpendingLedger } from '../../../src/core/llm/spending/ledger';
import { SETTINGS_ADVICE, type LimitAdvice } from '../../../src/core/llm/spending/limitAdvice';
import { PriceBook } from '../../../src/core/llm/spending/prices';
import { streamText } from '../../../src/core/llm/textReply';
import { DemoCouncilEndpoint } from '../../support/demoCouncilEndpoint';
import { runCouncilMain as run } from '../../support/runCouncilMain';
import { ScriptedModel } from '../../support/scriptedModel';

/*
 * A limit's refusal in each door's words: the core names the limit, VS Code says which setting raises it (its default
 * advice), the command which config field; neither borrows the other's.
 */

const SESSION: SpendingScope = {
  subject: 'This session',
  limits: { credits: 'sessionCredits', requests: 'sessionRequests' },
  work: 'session',
};
const RUN: SpendingScope = {
  subject: 'This /plan run',
  limits: { credits: 'runCredits', requests: 'runRequests' },
  work: 'run',
};
const ask = [{ role: 'user' as const, content: 'x'.repeat(4_000) }];

/** The refusal after one request, of a governor with `limits` and `advice` (absent: the core's default, VS Code's). */
async function refusal(
  scope: SpendingScope,
  limits: { maxRequests?: number; maxCredits?: number },
  advice?: LimitAdvice,
) {
  const governor = SpendingGovernor.create({
    limits,
    scope,
    ...(advice ? { advice } : {}),
    prices: new PriceBook({ scripted: { input: 3, output: 15 } }),
    ledger: new SpendingLedger(),
  });
  const model = governor.model(new ScriptedModel(() => 'y'.repeat(400)), 'Architect');
  await streamText(model, ask, neverCancelled);
  try {
    await streamText(model, ask, neverCancelled);
  } catch (error) {
    assert.ok(error instanceof LanguageModelFailure && error.kind === 'budgetSpent');
    return error.message;
  }
  assert.fail('the second request was not refused');
}

describe("a limit's refusal in each door's words", () => {
  const command = commandLimitAdvice('/p/.council/config.json');

  it('VS Code names the setting and Try again', async () => {
    assert.match(
      await refusal(SESSION, { maxRequests: 1 }),
      /has used 1 of its 1 model requests\. Raise `council\.budget\.maxRequests` in the settings, then press Try again to continue where it stopped\.$/,
    );
    assert.match(
      await refusal(SESSION, { maxCredits: 2 }),
      /Raise `council\.budget\.maxCredits` in the settings, then press Try again/,
    );
    assert.match(await refusal(RUN, { maxRequests: 1 }), /Raise `council\.budget\.runMaxRequests` in the settings/);
  });

  it('the command names the config field in the file the models came from, and council retry', async () => {
    const requests = await refusal(SESSION, { maxRequests: 1 }, command);
    assert.match(
      requests,
      /Raise `limits\.maxRequests` in \/p\/\.council\/config\.json, then go on with `council retry <session id>`/,
    );
    const credits = await refusal(SESSION, { maxCredits: 2 }, command);
    assert.match(credits, /Raise `limits\.maxDollars` in \/p\/\.council\/config\.json, then go on with `council retry/);
    for (const text of [requests, credits]) assert.doesNotMatch(text, /settings|council\.budget|Try again/);
    // Without a config file the command names the project's, to be written.
    assert.match(commandLimitAdvice(undefined).raise('sessionCredits') ?? '', /in \.council\/config\.json$/);
  });

  it("the command names no way to raise a limit it fixes, and says a run's cannot be resumed past it", async () => {
    const text = await refusal(RUN, { maxRequests: 1 }, command);
    assert.match(
      text,
      /has used 1 of its 1 model requests\. A run's limits are fixed in the command, so start a narrower run\.$/,
    );
    assert.equal(command.raise('scriptHostCalls'), undefined);
  });

  it("the notice that a limit ended the debate names each door's way to raise the session's limits", () => {
    const deps = { clock: { now: () => '2026-01-01T00:00:00.000Z' }, ids: { next: () => 's' } };
    const log = newCouncilSession({ request: 'Queue or cron?', userId: 'u', limits: {} }, deps);
    const spend = { totals: log.spent, limits: { maxCredits: 40, maxRequests: 12 } };
    assert.match(
      budgetStopNotice(log.snapshot, spend, SETTINGS_ADVICE),
      /To let the council debate longer, raise `council\.budget\.maxCredits` in the settings or raise `council\.budget\.maxRequests` in the settings, and ask again\./,
    );
    const inCommand = budgetStopNotice(log.snapshot, spend, command);
    assert.match(
      inCommand,
      /To let the council debate longer, raise `limits\.maxDollars` in \/p\/\.council\/config\.json or raise `limits\.maxRequests` in \/p\/\.council\/config\.json, and ask again\./,
    );
    assert.doesNotMatch(inCommand, /council\.budget/);
  });

  describe('end to end: council ask over the config file', function () {
    this.timeout(30_000);
    const endpoint = new DemoCouncilEndpoint();
    let project: string;
    before(async () => {
      const baseUrl = await endpoint.start();
      project = await mkdtemp(join(tmpdir(), 'council-limit-advice-'));
      await mkdir(join(project, '.council'));
      await writeFile(
        join(project, '.council', 'config.json'),
        JSON.stringify({
          providers: { hosted: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'LIMIT_ADVICE_TEST_KEY' } },
          models: { default: 'hosted:family-a' },
          prices: { 'family-a': { input: 100, output: 400 } },
          limits: { maxDollars: 0.5 },
        }),
      );
      process.env.LIMIT_ADVICE_TEST_KEY = 'k';
    });
    after(async () => {
      delete process.env.LIMIT_ADVICE_TEST_KEY;
      await endpoint.stop();
      await rm(project, { recursive: true, force: true });
    });

    it('stops at limits.maxDollars and says to raise it in that file, then council retry', async () => {
      const result = await run(['ask', '--yes', DEMO_DECISION], project);
      assert.equal(result.code, 1, result.stderr);
      const file = join(project, '.council', 'config.json');
      assert.ok(result.stderr.includes(`Raise \`limits.maxDollars\` in ${file}`), result.stderr);
      assert.doesNotMatch(result.stderr, /in the settings|council\.budget/);
      assert.match(result.stderr, /council retry [0-9a-f-]{36}/);
      console.log(
        `      (${result.stderr
          .split('\n')
          .filter(l => /Raise/.test(l))
          .join(' | ')})`,
      );
    });
  });
});
