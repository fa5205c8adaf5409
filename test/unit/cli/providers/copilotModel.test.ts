import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { CopilotModel } from '../../../../src/cli/providers/copilot/copilotModel';
import { CopilotRuntime } from '../../../../src/cli/providers/copilot/copilotRuntime';
import { DollarPriceBook } from '../../../../src/cli/prices/dollarPrices';
import { CancellationScope } from '../../../../src/core/llm/cancellationScope';
import {
  CancelledError,
  LanguageModelFailure,
  neverCancelled,
  type ChatMessage,
  type ModelFailureKind,
  type ResponsePart,
} from '../../../../src/core/llm/languageModel';
import { SpendingGovernor } from '../../../../src/core/llm/spending/governor';
import { SpendingLedger } from '../../../../src/core/llm/spending/ledger';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';
import type { LoggedMessage, StandInScenario } from '../../../support/copilotCliStandIn';
import { copilotStandIn, type CopilotStandIn } from '../../../support/copilotStandIn';

/*
 * The copilot provider's adapter against a scripted stand-in for Copilot CLI (test/support/copilotCliStandIn.ts):
 * the real @github/copilot-sdk starts it as the CLI and speaks its JSON-RPC protocol over stdio.
 */

const Verdict = z.object({ converged: z.boolean(), reason: z.string().min(1) });
const messages: ChatMessage[] = [{ role: 'user', content: 'Has the debate converged?' }];
const USAGE = { inputTokens: 900, outputTokens: 40, nanoAiu: 2_500_000_000, cost: 0.33 };

async function collect(parts: AsyncIterable<ResponsePart>): Promise<ResponsePart[]> {
  const out: ResponsePart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

function failsWith(kind: ModelFailureKind, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof LanguageModelFailure, String(error));
    assert.equal(error.kind, kind, error.message);
    assert.match(error.message, pattern);
    return true;
  };
}

function sent(received: LoggedMessage[], method: string): Record<string, unknown>[] {
  return received.filter(message => message.method === method).map(message => message.params);
}

describe('copilot provider: the language-model port over Copilot CLI (scripted stand-in) @slow', function () {
  // Each test starts the stand-in as a process (through tsx), as the SDK starts the real CLI.
  this.timeout(30_000);
  let standIn: CopilotStandIn | undefined;
  let runtime: CopilotRuntime | undefined;

  const start = (scenario: Partial<StandInScenario>, modelId = 'gpt-5-mini') => {
    standIn = copilotStandIn({ loggedIn: true, models: ['gpt-5-mini', 'claude-sonnet-4.6'], replies: [], ...scenario });
    runtime = new CopilotRuntime(standIn.cliPath, standIn.environment, 50);
    return { model: new CopilotModel({ runtime, modelId, maxInputTokens: 128_000 }), standIn };
  };

  afterEach(async () => {
    await runtime?.stop();
    standIn?.remove();
    runtime = undefined;
    standIn = undefined;
  });

  it('gets a structured reply through a tool that ends the turn, in a session with no other tool, and sums usage', async () => {
    const { model, standIn } = start({
      replies: [
        { toolCall: { name: 'cycle_verdict', arguments: { converged: true, reason: 'all agree' } }, usage: USAGE },
      ],
    });
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'Whether the debate converged.', messages },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: true, reason: 'all agree' });
    const received = standIn.received();
    const [create] = sent(received, 'session.create');
    assert.equal(create?.model, 'gpt-5-mini');
    const tools = create?.tools as { name: string; parameters: { required?: unknown }; isTerminal?: boolean }[];
    assert.deepEqual(
      tools.map(tool => [tool.name, tool.isTerminal]),
      [['cycle_verdict', true]],
    );
    assert.deepEqual(tools[0]?.parameters.required, ['converged', 'reason'], 'the portable schema goes out as it is');
    assert.deepEqual(create?.availableTools, ['custom:cycle_verdict'], 'no built-in tool (shell, files, web)');
    const system = create?.systemMessage as { mode: string; content: string };
    assert.equal(system.mode, 'replace', "the CLI's coding-agent prompt is not sent (nor billed)");
    assert.match(system.content, /Answer only by calling the tool `cycle_verdict`/);
    assert.deepEqual(create?.infiniteSessions, { enabled: false });
    assert.equal(create?.enableSessionStore, false);
    assert.deepEqual(create?.memory, { enabled: false });
    assert.deepEqual(create?.disabledMcpServers, [], 'the stand-in home configures no MCP server');
    const [send] = sent(received, 'session.send');
    assert.match(String(send?.prompt), /^Has the debate converged\?\n\n[\s\S]*cycle_verdict/);
    assert.equal(sent(received, 'session.tools.handlePendingToolCall').length, 1, "the SDK answered the tool's call");
    assert.equal(
      sent(received, 'session.delete')[0]?.sessionId,
      create?.sessionId,
      "no session left in the user's list",
    );
    assert.deepEqual(model.usage, {
      requests: 1,
      inputTokens: 900,
      outputTokens: 40,
      credits: 2.5,
      premiumRequests: 0.33,
    });
  });

  it('aborts a runtime that goes on after the terminal tool call, so the call costs one model call', async () => {
    const { model, standIn } = start({
      ignoresTerminal: true,
      replies: [{ toolCall: { name: 'cycle_verdict', arguments: { converged: true, reason: 'ok' } }, usage: USAGE }],
    });
    const parts = await collect(
      model.sendRequest(
        { messages, tools: [{ name: 'cycle_verdict', description: 'd', inputSchema: {} }], toolMode: 'required' },
        neverCancelled,
      ),
    );
    assert.deepEqual(parts, [
      { kind: 'toolCall', callId: 'call_1', name: 'cycle_verdict', input: { converged: true, reason: 'ok' } },
    ]);
    assert.equal(sent(standIn.received(), 'session.abort').length, 1);
    assert.equal(model.usage.requests, 1);
  });

  it('is charged by the one governor at the Copilot price of the model, in dollars', async () => {
    const { model } = start({ replies: [{ text: 'y'.repeat(400), usage: USAGE }] });
    const ledger = new SpendingLedger();
    const governor = SpendingGovernor.create({
      limits: { maxRequests: 5 },
      scope: { subject: 'This session', limits: {}, work: 'session' },
      prices: new DollarPriceBook(),
      ledger,
    });
    const paid = governor.model(model, 'Security Expert');
    const parts = await collect(
      paid.sendRequest({ messages: [{ role: 'user', content: 'x'.repeat(4_000) }] }, neverCancelled),
    );
    assert.deepEqual(parts, [{ kind: 'text', text: 'y'.repeat(400) }]);
    // gpt-5-mini on Copilot: $0.25 in, $2 out per million; 1,000 tokens in, 100 out = $0.00045 = 0.045 credits.
    assert.equal(ledger.entries[0]?.model, 'gpt-5-mini');
    assert.equal(ledger.entries[0]?.requests, 1);
    assert.ok(Math.abs(governor.spent.credits - 0.045) < 1e-9, String(governor.spent.credits));
  });

  it('sends a repair round as one transcript prompt: the earlier call, its result, the follow-up', async () => {
    const { model, standIn } = start({ replies: [{ text: 'fixed', usage: USAGE }] });
    await collect(
      model.sendRequest(
        {
          messages: [
            { role: 'user', content: 'Start.' },
            { role: 'assistant', content: [{ kind: 'toolCall', callId: 'c7', name: 'pick', input: { a: 1 } }] },
            { role: 'user', content: [{ kind: 'toolResult', callId: 'c7', content: 'Error: a must be 2' }] },
          ],
        },
        neverCancelled,
      ),
    );
    const prompt = String(sent(standIn.received(), 'session.send')[0]?.prompt);
    assert.match(
      prompt,
      /### Council\nStart\.\n\n### Your earlier reply\n\(called the tool `pick` with input \{"a":1\}\)/,
    );
    assert.match(prompt, /\(result of the call to `pick`: Error: a must be 2\)$/);
    const [create] = sent(standIn.received(), 'session.create');
    assert.deepEqual(create?.availableTools, [], 'a request without tools offers none');
  });

  it('says to log in, and starts no session, when Copilot CLI is not logged in', async () => {
    const { model, standIn } = start({ loggedIn: false });
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith('noPermissions', /Copilot CLI is not logged in \(Not authenticated\): run `copilot login`/),
    );
    assert.equal(sent(standIn.received(), 'session.create').length, 0);
  });

  it('names the models the account has when the config names another, before any session', async () => {
    const { model, standIn } = start({}, 'gpt-9');
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith('notFound', /no model "gpt-9" for this account\. It has "gpt-5-mini", "claude-sonnet-4\.6"/),
    );
    assert.equal(sent(standIn.received(), 'session.create').length, 0);
  });

  it("maps Copilot's errors: quota, rate limit with its wait, and a 400 the core answers without tools", async () => {
    const { model, standIn } = start({
      replies: [
        { error: { errorType: 'quota', message: 'You have used all your AI credits', statusCode: 402 } },
        { error: { errorType: 'rate_limit', message: 'Rate limited, retry after 20 seconds', statusCode: 429 } },
        { error: { errorType: 'query', message: 'Invalid schema for function "cycle_verdict"', statusCode: 400 } },
        { text: '```json\n{"converged":false,"reason":"split"}\n```', usage: USAGE },
      ],
    });
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith('quotaExceeded', /Copilot usage is used up/),
    );
    await assert.rejects(collect(model.sendRequest({ messages }, neverCancelled)), (error: unknown) => {
      failsWith('rateLimited', /retry after 20 seconds/)(error);
      assert.equal((error as LanguageModelFailure).retryAfterSeconds, 20);
      return true;
    });
    const refusals: string[] = [];
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'd', messages, onToolRefused: m => refusals.push(m) },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: false, reason: 'split' });
    assert.match(refusals[0] ?? '', /400 Bad Request: Invalid schema/);
    const creates = sent(standIn.received(), 'session.create');
    assert.deepEqual(creates[3]?.availableTools, [], 'asked again as fenced JSON, without tools');
  });

  it('aborts the session when the request is cancelled, and leaves none behind', async () => {
    const { model, standIn } = start({ replies: [{ hang: true }] });
    const token = new CancellationScope(neverCancelled);
    const reply = collect(model.sendRequest({ messages }, token));
    while (sent(standIn.received(), 'session.send').length === 0) await new Promise(r => setTimeout(r, 20));
    token.cancel();
    await assert.rejects(reply, (error: unknown) => error instanceof CancelledError);
    await new Promise(r => setTimeout(r, 100));
    const received = standIn.received();
    assert.equal(sent(received, 'session.abort').length, 1);
    assert.equal(sent(received, 'session.delete').length, 1);
  });

  it('stops the CLI once no request has run for a moment, and starts it again for the next one', async () => {
    const { model, standIn } = start({
      replies: [
        { text: 'one', usage: USAGE },
        { text: 'two', usage: USAGE },
      ],
    });
    await collect(model.sendRequest({ messages }, neverCancelled));
    await new Promise(r => setTimeout(r, 400));
    assert.equal(sent(standIn.received(), 'runtime.shutdown').length, 1, 'the command can exit');
    const parts = await collect(model.sendRequest({ messages }, neverCancelled));
    assert.deepEqual(parts, [{ kind: 'text', text: 'two' }]);
    assert.equal(sent(standIn.received(), 'connect').length, 2);
  });
});
