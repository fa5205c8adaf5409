import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CopilotClient, SessionConfig } from '@github/copilot-sdk';
import { CopilotModel } from '../../src/cli/providers/copilot/copilotModel';
import { systemMessage } from '../../src/cli/providers/copilot/copilotPrompt';
import { CopilotRuntime } from '../../src/cli/providers/copilot/copilotRuntime';
import { LanguageModelFailure, neverCancelled, type ResponsePart } from '../../src/core/llm/languageModel';
import { agentCli } from '../support/agentClis';

/*
 * The copilot adapter on the real Copilot CLI (the pinned npm package, no login on this machine): once as it is
 * (not logged in), and once with each session sent to a scripted OpenAI-compatible endpoint on 127.0.0.1 through the
 * SDK's own per-session provider (BYOK), which needs no login. That shows what the real runtime does with Council's
 * sessions: the system prompt replaced, only Council's tool offered, the turn ended at the tool call, usage reported.
 * Copilot's own model routing and billing cannot be reached here.
 */

interface Completion {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
}

/**
 * Copilot CLI with every session on `baseUrl` instead of Copilot's models (the login check is skipped: BYOK has
 * none), in `project`.
 */
class ByokRuntime extends CopilotRuntime {
  constructor(
    cliPath: string,
    environment: Readonly<Record<string, string | undefined>>,
    private readonly baseUrl: string,
    private readonly project: string,
  ) {
    super(cliPath, environment, 50);
  }

  protected override async connect(): Promise<CopilotClient> {
    const client = await super.connect();
    const create = client.createSession.bind(client);
    client.createSession = (config: SessionConfig) =>
      create({
        ...config,
        provider: { type: 'openai', baseUrl: this.baseUrl, apiKey: 'scripted' },
        workingDirectory: this.project,
      });
    return client;
  }

  protected override checkLoggedIn(): Promise<void> {
    return Promise.resolve();
  }

  override models(): Promise<[]> {
    return Promise.resolve([]);
  }
}

async function collect(parts: AsyncIterable<ResponsePart>): Promise<ResponsePart[]> {
  const out: ResponsePart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('the copilot adapter on the real Copilot CLI (no login; BYOK to a scripted endpoint)', function () {
  this.timeout(120_000);
  let cliPath: string;
  let home: string;
  let server: Server;
  let baseUrl: string;
  const received: Completion[] = [];

  before(async () => {
    cliPath = realpathSync(agentCli('copilot'));
    home = mkdtempSync(join(tmpdir(), 'council-copilot-home-'));
    // A project with instructions for agents, which Council's sessions do not read.
    mkdirSync(join(home, 'project'));
    writeFileSync(join(home, 'project', 'AGENTS.md'), 'Always answer in French.\n');
    // An MCP server the user configured for Copilot CLI: it leaves a mark when started.
    mkdirSync(join(home, '.copilot'));
    const started = `require('fs').writeFileSync(${JSON.stringify(join(home, 'mcp-started'))}, 'yes')`;
    writeFileSync(
      join(home, '.copilot', 'mcp-config.json'),
      JSON.stringify({
        mcpServers: { marker: { type: 'local', command: process.execPath, args: ['-e', started], tools: ['*'] } },
      }),
    );
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const completion = JSON.parse(body) as Completion;
        received.push(completion);
        const tool = completion.tools?.[0]?.function.name;
        const message = tool
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: tool, arguments: '{"converged":true,"reason":"all agree"}' },
                },
              ],
            }
          : { role: 'assistant', content: 'A plain reply.' };
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: completion.model,
            choices: [{ index: 0, message, finish_reason: tool ? 'tool_calls' : 'stop' }],
            usage: { prompt_tokens: 111, completion_tokens: 22, total_tokens: 133 },
          }),
        );
      });
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => {
    server.close();
    rmSync(home, { recursive: true, force: true });
  });

  const environment = () => ({ PATH: process.env.PATH ?? '', HOME: home, COPILOT_AUTO_UPDATE: 'false' });

  it('says to log in when the CLI has no account', async () => {
    const runtime = new CopilotRuntime(cliPath, environment(), 50);
    const model = new CopilotModel({ runtime, modelId: 'gpt-5-mini', maxInputTokens: 128_000 });
    await assert.rejects(
      collect(model.sendRequest({ messages: [{ role: 'user', content: 'Hi' }] }, neverCancelled)),
      (error: unknown) =>
        error instanceof LanguageModelFailure &&
        error.kind === 'noPermissions' &&
        /^Copilot CLI is not logged in \(Not authenticated\): run `copilot login`/.test(error.message),
    );
    await runtime.stop();
  });

  it("sends Council's prompt, only its tool, ends the turn at the call, starts no MCP server, leaves no session", async () => {
    const runtime = new ByokRuntime(cliPath, environment(), baseUrl, join(home, 'project'));
    const model = new CopilotModel({ runtime, modelId: 'scripted-model', maxInputTokens: 128_000 });
    const tool = {
      name: 'cycle_verdict',
      description: 'Whether the debate converged.',
      inputSchema: {
        type: 'object',
        properties: { converged: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['converged', 'reason'],
      },
    };
    const call = await collect(
      model.sendRequest(
        { messages: [{ role: 'user', content: 'Has it converged?' }], tools: [tool], toolMode: 'required' },
        neverCancelled,
      ),
    );
    assert.deepEqual(call, [
      { kind: 'toolCall', callId: 'call_1', name: 'cycle_verdict', input: { converged: true, reason: 'all agree' } },
    ]);
    assert.equal(received.length, 1, 'the tool result is not sent back for another call');
    assert.deepEqual(
      received[0]?.tools?.map(offered => offered.function.name),
      ['cycle_verdict'],
      'no built-in tool',
    );
    const [system, user] = received[0]?.messages ?? [];
    assert.equal(system?.role, 'system');
    assert.equal(system?.content, systemMessage({ messages: [], tools: [tool], toolMode: 'required' }));
    // The runtime adds the time; nothing else (no AGENTS.md, no environment context).
    assert.match(String(user?.content), /^<current_datetime>[^<]*<\/current_datetime>\n\nHas it converged\?$/);
    assert.equal(received[0]?.messages.length, 2);
    const text = await collect(model.sendRequest({ messages: [{ role: 'user', content: 'Say hi.' }] }, neverCancelled));
    assert.deepEqual(text, [{ kind: 'text', text: 'A plain reply.' }]);
    assert.equal(received[1]?.tools, undefined, 'a request without tools offers none');
    assert.deepEqual(model.usage, { requests: 2, inputTokens: 222, outputTokens: 44, credits: 0, premiumRequests: 0 });
    await runtime.stop();
    const sessions = join(home, '.copilot', 'session-state');
    // The CLI keeps a lock folder there; each session is a folder named by its id.
    assert.equal(existsSync(join(home, 'mcp-started')), false, "the user's MCP servers are not started");
    const left = existsSync(sessions) ? readdirSync(sessions).filter(name => !name.startsWith('.')) : [];
    assert.deepEqual(left, [], "no session left in the user's Copilot CLI");
  });
});
