import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../core/clock';
import type { CouncilCommand } from '../../core/council/commands';
import { newCouncilSession, type NewSessionOptions } from '../../core/council/councilTurn';
import { DeliberationInputSchema, sessionRequest, sessionToolResult } from '../../core/council/deliberation';
import type { CouncilDeps, RoleModels } from '../../core/council/ports';
import type { SessionLog } from '../../core/council/sessionLog';
import { continuationCommands, OpenInputSchema, readToolInput, TOOL } from '../../core/council/toolSession';
import type { CancellationSignal, LanguageModel } from '../../core/llm/languageModel';
import { advanceSession, type QuestionReply } from '../../core/council/toolSessionRun';
import type { PersonaContract } from '../../core/personas/contract';
import type { ClarificationQuestion } from '../../core/session/clarification';
import { SessionLimits } from '../../core/session/limits';
import { SessionFiles, unusableMessage } from '../sessionFiles';
import { fileDebateHistory } from '../debateHistoryFile';
import { mcpDebateAhead } from './mcpDebateAhead';
import { SamplingModel } from './samplingModel';
import { CHECKPOINT_ANSWER_TIMEOUT_MS } from './checkpointElicitation';
import { callDeepWorkTool, progressNotifier } from './deepWorkTools';

/*
 * `council mcp`: Council's four tools over the Model Context Protocol (stdio), with the inputs and results of the
 * VS Code tools. Questions go to the user through elicitation when the client offers it; progress goes out as
 * progress notifications; the client's cancellation stops the spending (the governor sees the token).
 */

export interface McpServerOptions {
  readonly project: string;
  /** The configured model; undefined: the client's model through sampling, when it offers it. */
  readonly model?: LanguageModel;
  /** The config's models per seat and for the answer (with `model`); absent: `model` for everything. */
  readonly roleModels?: RoleModels;
  /** How to configure a model, for the error when there is none. */
  readonly noModelHelp: string;
  readonly personas: readonly PersonaContract[];
  readonly spending: NonNullable<CouncilDeps['spending']>;
  /** Where the tool definitions are read from (the package manifest shipped beside the bundle). */
  readonly manifest?: string;
}

interface ManifestTool {
  readonly name: string;
  readonly modelDescription: string;
  readonly inputSchema: Tool['inputSchema'];
}

/** The tools as VS Code registers them: package.json `contributes.languageModelTools`, portable schemas as written. */
async function toolDefinitions(manifest: string): Promise<Tool[]> {
  const pkg = JSON.parse(await readFile(manifest, 'utf8')) as {
    contributes: { languageModelTools: readonly ManifestTool[] };
  };
  return pkg.contributes.languageModelTools.map(tool => ({
    name: tool.name,
    description: tool.modelDescription,
    inputSchema: tool.inputSchema,
  }));
}

function text(body: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

function signalFrom(abort: AbortSignal): CancellationSignal {
  return {
    get isCancellationRequested() {
      return abort.aborted;
    },
    onCancellationRequested(listener) {
      abort.addEventListener('abort', listener);
      return { dispose: () => abort.removeEventListener('abort', listener) };
    },
  };
}

export function councilMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'council', version: '0.0.0' },
    {
      capabilities: { tools: {} },
      instructions: 'Council: personas clarify, debate in bounded cycles, and give one consolidated answer.',
    },
  );
  const files = new SessionFiles(options.project);
  const debateHistory = fileDebateHistory(options.project);
  const manifest = options.manifest ?? resolve(__dirname, '..', '..', 'package.json');

  const modelChoice = (): { model: LanguageModel; text: string } | undefined => {
    if (options.model) return { model: options.model, text: options.model.name };
    if (server.getClientCapabilities()?.sampling)
      return {
        model: new SamplingModel(params => server.createMessage(params)),
        text: "the MCP client's own model through sampling (no provider is configured; MCP sampling is deprecated since the 2026-07-28 revision, so configure a provider)",
      };
    return undefined;
  };

  /** One question through elicitation: the recommended answer is the default; decline skips; cancel stops. */
  const elicit = async (question: ClarificationQuestion): Promise<QuestionReply> => {
    const recommended = question.recommendedAnswer;
    const result = await server.elicitInput({
      message: `${question.question}${recommended ? `\n\nRecommended: ${recommended}` : ''}\n\nDecline to skip (the recommended answer is logged as an assumption); cancel to stop the council.`,
      requestedSchema: {
        type: 'object',
        properties: {
          answer: { type: 'string', title: 'Your answer', ...(recommended ? { default: recommended } : {}) },
        },
      },
    });
    if (result.action === 'cancel') return { kind: 'cancelled' };
    if (result.action === 'decline') return { kind: 'skipped', unavailable: false };
    const answer = typeof result.content?.answer === 'string' ? result.content.answer.trim() : '';
    if (!answer || answer === recommended?.trim()) return { kind: 'answered', command: { kind: 'accept' } };
    return { kind: 'answered', command: { kind: 'answer', text: answer } };
  };

  /**
   * Runs `commands` on the session `open` gives (a stored one, or a new one it saves) to the next question or the
   * answer, asking each question by elicitation when `ask`; returns the session as the agent reads it.
   */
  const run = async (
    extra: { signal: AbortSignal; sendNotification: (n: ServerNotification) => Promise<void> },
    progressToken: string | number | undefined,
    choice: { readonly model: LanguageModel; readonly text: string },
    call: { open: (deps: CouncilDeps) => Promise<SessionLog>; commands: readonly CouncilCommand[]; ask: boolean },
  ): Promise<CallToolResult> => {
    const deps: CouncilDeps = {
      model: choice.model,
      personas: options.personas,
      clock: systemClock,
      ids: { next: randomUUID },
      output: {
        progress: progressNotifier(extra.sendNotification, progressToken),
        markdown: () => undefined,
        visible: () => undefined,
      },
      token: signalFrom(extra.signal),
      persist: stored => files.save(stored),
      debateHistory,
      spending: options.spending,
      // The seats' own models only with the configured model; a client's sampled model runs every seat.
      ...(options.roleModels && choice.model === options.model ? { roleModels: options.roleModels } : {}),
    };
    const log = await call.open(deps);
    const { stopped, fromVote, internal } = await advanceSession(log, call.commands, deps, {
      stopBeforeDebate: false,
      ...(call.ask ? { ask: elicit } : {}),
    });
    if (internal) throw internal.error;
    // Before its debate, the agent reads what the debate still ahead is forecast at, as the VS Code tool says it.
    const ahead =
      log.state === 'clarifying' ? await mcpDebateAhead(log, choice.model, options.spending, debateHistory) : undefined;
    const outcome = {
      ...(stopped !== undefined ? { stopped } : {}),
      ...(fromVote ? { fromVote } : {}),
      ...(ahead ? { ahead } : {}),
    };
    return text(sessionToolResult(log, { model: choice.text, ...outcome }));
  };

  /** A new session, saved before its first request. */
  const started = (session: NewSessionOptions) => async (deps: CouncilDeps) => {
    const log = newCouncilSession(session, deps);
    await files.save(log.stored);
    return log;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await toolDefinitions(manifest) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: input } = request.params;
    const progressToken = request.params._meta?.progressToken;
    // Form mode: an empty `elicitation` capability means forms (the SDK reads it as `{ form: {} }`); URL mode cannot ask.
    const canAsk = server.getClientCapabilities()?.elicitation?.form !== undefined;
    if (name === TOOL.plan || name === TOOL.workflow)
      return callDeepWorkTool(name, input, {
        project: options.project,
        model: modelChoice(),
        noModelHelp: options.noModelHelp,
        prices: options.spending.prices,
        token: signalFrom(extra.signal),
        progress: progressNotifier(extra.sendNotification, progressToken),
        ...(canAsk
          ? {
              elicit: form => server.elicitInput(form, { signal: extra.signal, timeout: CHECKPOINT_ANSWER_TIMEOUT_MS }),
            }
          : {}),
      });
    if (name !== TOOL.open && name !== TOOL.deliberate) return text(`Unknown tool ${name}.`, true);
    const read =
      name === TOOL.open
        ? readToolInput(name, OpenInputSchema, input)
        : readToolInput(name, DeliberationInputSchema, input);
    if ('malformed' in read) return text(read.malformed, true);
    const choice = modelChoice();
    if (!choice) return text(`${name} has no model to run on. ${options.noModelHelp}`, true);

    const retry = [{ kind: 'retry' }] as const;
    if (name === TOOL.open) {
      const open = OpenInputSchema.parse(input);
      const request = sessionRequest(open.question, open.context);
      const session = { request, userId: 'mcp', limits: SessionLimits.parse({}) };
      return run(extra, progressToken, choice, { open: started(session), commands: retry, ask: canAsk });
    }

    const deliberate = DeliberationInputSchema.parse(input);
    if (deliberate.question !== undefined) {
      const cycles = deliberate.maxCycles;
      const session = {
        request: sessionRequest(deliberate.question, deliberate.context),
        userId: 'mcp',
        limits: SessionLimits.parse(cycles ? { debateCycleLimit: cycles, adminMaxDebateCycles: cycles } : {}),
        skipClarification: true,
      };
      return run(extra, progressToken, choice, { open: started(session), commands: retry, ask: false });
    }
    const sessionId = deliberate.sessionId ?? '';
    const found = await files.read(sessionId);
    if (found.kind === 'missing') return text(`No council session ${sessionId} is saved in ${options.project}.`, true);
    if (found.kind !== 'found') return text(unusableMessage(found), true);
    const log = found.log;
    const planned = continuationCommands(log.snapshot, {
      ...(deliberate.action ? { action: deliberate.action } : {}),
      ...(deliberate.answers ? { answers: deliberate.answers } : {}),
    });
    if ('refused' in planned) return text(planned.refused, true);
    const { commands } = planned;
    return run(extra, progressToken, choice, { open: () => Promise.resolve(log), commands, ask: canAsk });
  });

  return server;
}
