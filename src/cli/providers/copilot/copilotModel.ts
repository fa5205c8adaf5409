import type { CopilotClient, CopilotSession, SessionEvent, Tool } from '@github/copilot-sdk';
import {
  CancelledError,
  LanguageModelFailure,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
  type ToolCallPart,
} from '../../../core/llm/languageModel';
import { copilotFailure, thrownFailure } from './copilotFailures';
import { promptText, systemMessage } from './copilotPrompt';
import type { CopilotRuntime } from './copilotRuntime';

/*
 * The language-model port over a Copilot model, through the user's Copilot CLI (an agent runtime, not a
 * chat-completions API). Each request is one throwaway session: no built-in tools, the CLI's own prompt replaced,
 * no memory, skills or instructions; the core's tools are the only ones offered, each ending the turn when called
 * (so a structured reply costs one model call), with the schemas the core sends, unchanged. What the CLI reports
 * spending (`assistant.usage`) is summed; the governor prices the request with the Copilot price table.
 */

/** What Copilot reported spending, summed over the model's requests. */
export interface CopilotUsage {
  /** Model calls the CLI made (one per request unless the model retried a refused tool input). */
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** AI credits as Copilot billed them (its nano-AIU / 1e9; 1 credit = $0.01), when it said. */
  readonly credits: number;
  /** Premium requests (the model's multiplier), which legacy annual plans still count. */
  readonly premiumRequests: number;
}

export interface CopilotModelSettings {
  readonly runtime: CopilotRuntime;
  /** The model id as Copilot names it, e.g. `claude-sonnet-4.6`. */
  readonly modelId: string;
  readonly maxInputTokens: number;
}

/** What one request's session produced. */
interface Reply {
  readonly texts: string[];
  readonly calls: ToolCallPart[];
  contentFiltered: boolean;
}

/** ceil(chars / 4): the CLI has no tokenizer call, and budgets only need an estimate. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Copilot's billing: nano AI units per request. */
const NANO_PER_CREDIT = 1e9;

export class CopilotModel implements LanguageModel {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  /** `copilot`: the price book's Copilot table (credits per token) applies. */
  readonly vendor = 'copilot';
  readonly maxInputTokens: number;
  readonly supportsToolCalling = true;
  private readonly runtime: CopilotRuntime;
  private spent: CopilotUsage = { requests: 0, inputTokens: 0, outputTokens: 0, credits: 0, premiumRequests: 0 };
  private checkedModel = false;

  constructor(settings: CopilotModelSettings) {
    this.id = settings.modelId;
    this.name = settings.modelId;
    this.family = settings.modelId;
    this.maxInputTokens = settings.maxInputTokens;
    this.runtime = settings.runtime;
  }

  get usage(): CopilotUsage {
    return this.spent;
  }

  countTokens(text: string): Promise<number> {
    return Promise.resolve(estimateTokens(text));
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncGenerator<ResponsePart> {
    if (token.isCancellationRequested) throw new CancelledError();
    const client = await this.runtime.acquire();
    let reply: Reply;
    try {
      await this.checkModel(client);
      reply = await this.exchange(client, request, token);
    } finally {
      this.runtime.release();
    }
    if (reply.contentFiltered && reply.calls.length === 0) {
      throw new LanguageModelFailure('blocked', 'Copilot filtered the reply (content filter).');
    }
    for (const text of reply.texts) yield { kind: 'text', text };
    for (const call of reply.calls) yield call;
  }

  /** Once: a model this account does not have fails before anything is sent, with the ids it has. */
  private async checkModel(client: CopilotClient): Promise<void> {
    if (this.checkedModel) return;
    const models = await this.runtime.models(client);
    if (models.length > 0 && !models.some(model => model.id === this.id)) {
      throw new LanguageModelFailure(
        'notFound',
        `Copilot has no model "${this.id}" for this account. It has ${models.map(model => `"${model.id}"`).join(', ')}: name one in the config file's "models", e.g. "copilot:${models[0]?.id ?? 'gpt-5-mini'}".`,
      );
    }
    this.checkedModel = true;
  }

  /** One session: create, send the prompt, collect until idle (or cancel), then leave no trace in the CLI. */
  private async exchange(client: CopilotClient, request: ModelRequest, token: CancellationSignal): Promise<Reply> {
    const reply: Reply = { texts: [], calls: [], contentFiltered: false };
    const tools: Tool[] = (request.tools ?? []).map(tool => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema as Record<string, unknown>,
      skipPermission: true,
      defer: 'never',
      // The call is the reply: the turn ends here instead of sending the result back for another model call.
      isTerminal: true,
      handler: (input, invocation) => {
        reply.calls.push({ kind: 'toolCall', callId: invocation.toolCallId, name: tool.name, input });
        return 'Recorded.';
      },
    }));
    let session: CopilotSession;
    try {
      session = await client.createSession({
        model: this.id,
        clientName: 'council',
        tools,
        // Only the core's tools: no shell, no files, no web, no MCP server (none is started either).
        availableTools: tools.map(tool => `custom:${tool.name}`),
        systemMessage: { mode: 'replace', content: systemMessage(request) },
        infiniteSessions: { enabled: false },
        enableSessionStore: false,
        enableSkills: false,
        memory: { enabled: false },
        skipCustomInstructions: true,
        // Nothing from the project either: no instruction files, hooks, git context or discovered config.
        enableOnDemandInstructionDiscovery: false,
        enableFileHooks: false,
        enableHostGitOperations: false,
        enableConfigDiscovery: false,
        skipEmbeddingRetrieval: true,
        disabledMcpServers: [...this.runtime.disabledMcpServers],
        onPermissionRequest: () => ({ kind: 'reject', feedback: 'Council allows no tools besides its own.' }),
      });
    } catch (error) {
      throw token.isCancellationRequested ? new CancelledError() : thrownFailure(error, this.id);
    }
    try {
      await this.converse(session, request, reply, token);
    } finally {
      await session.disconnect().catch(() => undefined);
      // Council's sessions are not the user's: none stays in Copilot CLI's session list.
      await client.deleteSession(session.sessionId).catch(() => undefined);
    }
    return reply;
  }

  private converse(
    session: CopilotSession,
    request: ModelRequest,
    reply: Reply,
    token: CancellationSignal,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let turns = 0;
      const finish = (error?: Error) => {
        unsubscribe();
        cancellation.dispose();
        if (error) reject(error);
        else resolve();
      };
      const unsubscribe = session.on((event: SessionEvent) => {
        switch (event.type) {
          case 'assistant.turn_start':
            turns += 1;
            // A runtime that does not end the turn at a terminal tool would bill another call for nothing.
            if (turns > 1 && reply.calls.length > 0) void session.abort().catch(() => undefined);
            break;
          case 'assistant.message':
            // After the tool call, text is the runtime going on, not the reply.
            if (event.data.content.trim() !== '' && reply.calls.length === 0) reply.texts.push(event.data.content);
            break;
          case 'assistant.usage':
            this.addUsage(event.data);
            if (event.data.contentFilterTriggered) reply.contentFiltered = true;
            break;
          case 'session.error':
            finish(copilotFailure(event.data, this.id));
            break;
          case 'session.idle':
            finish();
            break;
          default:
            break;
        }
      });
      const cancellation = token.onCancellationRequested(() => {
        void session.abort().catch(() => undefined);
        finish(new CancelledError());
      });
      session.send({ prompt: promptText(request.messages) }).catch((error: unknown) => {
        finish(token.isCancellationRequested ? new CancelledError() : thrownFailure(error, this.id));
      });
    });
  }

  private addUsage(data: Extract<SessionEvent, { type: 'assistant.usage' }>['data']): void {
    this.spent = {
      requests: this.spent.requests + 1,
      inputTokens: this.spent.inputTokens + (data.inputTokens ?? 0),
      outputTokens: this.spent.outputTokens + (data.outputTokens ?? 0),
      credits: this.spent.credits + (data.copilotUsage?.totalNanoAiu ?? 0) / NANO_PER_CREDIT,
      premiumRequests: this.spent.premiumRequests + (data.cost ?? 0),
    };
  }
}
