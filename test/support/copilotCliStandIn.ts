import { appendFileSync, readFileSync } from 'node:fs';
import { DemoModel } from '../../src/cli/demo/demoModel';
import { neverCancelled, type ResponsePart } from '../../src/core/llm/languageModel';

/*
 * A scripted stand-in for `copilot --headless --stdio`: the JSON-RPC server @github/copilot-sdk drives (Content-Length
 * framed messages on stdin/stdout; methods and events as the SDK 1.0.14 sends and reads them). It answers the
 * handshake, auth and the model list, keeps sessions, and plays one scripted reply per `session.send`: a text, a call
 * to one of the session's tools (through `external_tool.requested`, waiting for the SDK's result), an error, or
 * nothing until `session.abort`; or, with `demo`, the demo council's reply to the prompt and tools it was sent (so a whole
 * `council ask` can run through it). Every message it receives is logged as a JSON line for the test to assert.
 * Run by the SDK through a launcher (see copilotStandIn.ts); the scenario and log paths come from the environment.
 */

export interface StandInUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly nanoAiu?: number;
  readonly cost?: number;
  readonly finishReason?: string;
}

export type StandInReply =
  | { readonly text: string; readonly usage: StandInUsage }
  | { readonly toolCall: { readonly name: string; readonly arguments: unknown }; readonly usage: StandInUsage }
  | {
      readonly error: {
        readonly errorType: string;
        readonly message: string;
        readonly statusCode?: number;
      };
    }
  | { readonly hang: true };

export interface StandInScenario {
  readonly loggedIn: boolean;
  readonly models: readonly string[];
  /** Plays an older runtime that sends a terminal tool's result back for another model call. */
  readonly ignoresTerminal?: boolean;
  /** One per `session.send`, in order. */
  readonly replies: readonly StandInReply[];
  /** Answer every `session.send` as the demo council would (after the scripted replies run out). */
  readonly demo?: boolean;
}

export interface LoggedMessage {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

interface JsonRpcMessage {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: unknown;
}

interface Session {
  readonly tools: readonly {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: object;
    readonly isTerminal?: boolean;
  }[];
}

const scenario = JSON.parse(readFileSync(process.env.STAND_IN_SCENARIO ?? '', 'utf8')) as StandInScenario;
const logFile = process.env.STAND_IN_LOG ?? '';
const sessions = new Map<string, Session>();
const pendingTools = new Map<string, () => void>();
const aborted = new Set<string>();
let eventCount = 0;

function write(message: object): void {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function emit(sessionId: string, type: string, data: object): void {
  eventCount += 1;
  const event = { id: `e${eventCount}`, timestamp: new Date().toISOString(), parentId: null, type, data };
  write({ method: 'session.event', params: { sessionId, event } });
}

function usageEvent(sessionId: string, model: string, usage: StandInUsage): void {
  emit(sessionId, 'assistant.usage', {
    model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cost === undefined ? {} : { cost: usage.cost }),
    ...(usage.finishReason === undefined ? {} : { finishReason: usage.finishReason }),
    ...(usage.nanoAiu === undefined ? {} : { copilotUsage: { totalNanoAiu: usage.nanoAiu } }),
  });
}

const models = new Map<string, string>();

/** Plays the next scripted reply in `sessionId`. */
/** The demo council's reply to what this session was sent: its tool call, else its text. */
async function demoReply(sessionId: string, prompt: string): Promise<StandInReply> {
  const tools = (sessions.get(sessionId)?.tools ?? []).map(tool => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.parameters ?? {},
  }));
  const parts: ResponsePart[] = [];
  const request = {
    messages: [{ role: 'user' as const, content: prompt }],
    tools,
    ...(tools.length > 0 ? { toolMode: 'required' as const } : {}),
  };
  for await (const part of new DemoModel().sendRequest(request, neverCancelled)) parts.push(part);
  const call = parts.find(part => part.kind === 'toolCall');
  const text = parts.map(part => (part.kind === 'text' ? part.text : '')).join('');
  const usage = { inputTokens: Math.ceil(prompt.length / 4), outputTokens: Math.ceil(text.length / 4) + 20 };
  return call ? { toolCall: { name: call.name, arguments: call.input }, usage } : { text, usage };
}

async function play(sessionId: string, replyIndex: number, prompt: string): Promise<void> {
  const reply = scenario.replies[replyIndex] ??
    (scenario.demo ? await demoReply(sessionId, prompt) : undefined) ?? {
      text: '(no scripted reply left)',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  const model = models.get(sessionId) ?? '';
  if ('hang' in reply) return;
  emit(sessionId, 'assistant.turn_start', { turnId: '1' });
  if ('error' in reply) {
    emit(sessionId, 'session.error', reply.error);
    emit(sessionId, 'session.idle', {});
    return;
  }
  if ('text' in reply) {
    emit(sessionId, 'assistant.message', { messageId: 'm1', content: reply.text });
    usageEvent(sessionId, model, reply.usage);
    emit(sessionId, 'assistant.turn_end', { turnId: '1' });
    emit(sessionId, 'session.idle', {});
    return;
  }
  const requestId = `r${replyIndex + 1}`;
  const toolCallId = `call_${replyIndex + 1}`;
  emit(sessionId, 'assistant.message', {
    messageId: 'm1',
    content: '',
    toolRequests: [{ toolCallId, name: reply.toolCall.name, arguments: reply.toolCall.arguments }],
  });
  usageEvent(sessionId, model, reply.usage);
  const answered = new Promise<void>(resolve => pendingTools.set(requestId, resolve));
  emit(sessionId, 'external_tool.requested', {
    requestId,
    sessionId,
    toolCallId,
    toolName: reply.toolCall.name,
    arguments: reply.toolCall.arguments,
  });
  await answered;
  const terminal = sessions.get(sessionId)?.tools.find(tool => tool.name === reply.toolCall.name)?.isTerminal;
  emit(sessionId, 'external_tool.completed', { requestId });
  emit(sessionId, 'assistant.turn_end', { turnId: '1' });
  if (!terminal || scenario.ignoresTerminal) {
    // What a runtime does with a tool that does not end the turn: the result goes back for another model call.
    emit(sessionId, 'assistant.turn_start', { turnId: '2' });
    await new Promise(resolve => setTimeout(resolve, 100));
    if (aborted.has(sessionId)) return;
    emit(sessionId, 'assistant.message', { messageId: 'm2', content: 'Done.' });
    usageEvent(sessionId, model, reply.usage);
  }
  emit(sessionId, 'session.idle', {});
}

function handle(message: JsonRpcMessage): void {
  if (message.method === undefined) return; // a response to a request of ours (none are sent)
  const params = message.params ?? {};
  appendFileSync(logFile, `${JSON.stringify({ method: message.method, params })}\n`);
  const respond = (result: unknown) => {
    if (message.id !== undefined) write({ id: message.id, result });
  };
  const sessionId = typeof params.sessionId === 'string' ? params.sessionId : '';
  switch (message.method) {
    case 'connect':
    case 'ping':
      return respond({ protocolVersion: 3, message: 'pong', timestamp: Date.now() });
    case 'auth.getStatus':
      return respond(
        scenario.loggedIn
          ? { isAuthenticated: true, authType: 'user', login: 'octocat', host: 'https://github.com' }
          : { isAuthenticated: false, statusMessage: 'Not authenticated' },
      );
    case 'models.list':
      if (!scenario.loggedIn) {
        if (message.id !== undefined)
          write({ id: message.id, error: { code: -32603, message: 'Not authenticated. Please authenticate first.' } });
        return;
      }
      return respond({
        models: scenario.models.map(id => ({
          id,
          name: id,
          capabilities: {
            supports: { vision: false, reasoningEffort: false },
            limits: { max_context_window_tokens: 128000 },
          },
        })),
      });
    case 'session.create':
      sessions.set(sessionId, { tools: (params.tools as Session['tools'] | undefined) ?? [] });
      models.set(sessionId, String(params.model ?? ''));
      return respond({ sessionId, workspacePath: null, capabilities: {} });
    case 'session.send': {
      // Counted in the log, so a CLI started again goes on with the next scripted reply.
      const replyIndex = readFileSync(logFile, 'utf8').split('"method":"session.send"').length - 2;
      respond({ messageId: `msg${replyIndex}` });
      void play(sessionId, replyIndex, String(params.prompt ?? ''));
      return;
    }
    case 'session.tools.handlePendingToolCall':
      respond({ success: true });
      pendingTools.get(String(params.requestId))?.();
      return;
    case 'session.abort':
      aborted.add(sessionId);
      respond({});
      emit(sessionId, 'abort', { reason: 'user' });
      emit(sessionId, 'session.idle', { aborted: true });
      return;
    case 'session.options.update':
      return respond({});
    case 'session.detach':
    case 'session.delete':
      return respond({ success: true });
    case 'runtime.shutdown':
      respond({});
      setTimeout(() => process.exit(0), 10);
      return;
    default:
      if (message.id !== undefined)
        write({ id: message.id, error: { code: -32601, message: `Unhandled method ${message.method}` } });
  }
}

let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk: Buffer) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1] ?? 0);
    if (buffer.length < headerEnd + 4 + length) return;
    const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString();
    buffer = buffer.subarray(headerEnd + 4 + length);
    handle(JSON.parse(body) as JsonRpcMessage);
  }
});
process.stdin.on('end', () => process.exit(0));
