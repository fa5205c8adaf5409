import type { z } from 'zod';
import type { ChatMessage } from '../../llm/languageModel';
import { RepairBudget } from '../../llm/repairBudget';
import { requestStructured } from '../../llm/structuredOutput';
import type { UsageMeter } from '../../llm/usage';
import type { DraftRequest } from '../drafts/draftRequest';
import type { HandoffParty } from '../handoff/envelope';
import { handoffWithRepair } from '../handoff/handoffWithRepair';
import type { ValidationError } from '../handoff/validationError';
import { schemaRef } from '../schemas/catalog';
import type { StageEnvironment } from './stageEnvironment';
import type { ChainPosition, StageFrame } from './stageFrame';

/** One handoff a stage makes: who to whom, which catalog payload, where in the trace, and how to produce it. */
export interface StageHandoffRequest<T> {
  readonly source: HandoffParty;
  readonly target: HandoffParty;
  /** Catalog name of the payload, e.g. `discovery-report`. */
  readonly payloadName: string;
  readonly schema: z.ZodType<T>;
  /** Depth in the run's handoff chain; 0 is the root (no parent). */
  readonly depth: number;
  readonly parentHandoffId?: string;
  /** Ticket ids that exist, when the payload refers to tickets. */
  readonly knownTickets?: ReadonlySet<string>;
  /** Produces the payload; on a retry `feedback` says what the last one got wrong. */
  produce(feedback?: readonly ValidationError[]): Promise<T>;
  /** The reply's one repair budget, when its producer repairs too (default: the run's repairs per reply). */
  readonly repairs?: RepairBudget;
}

/** An accepted handoff: the validated payload and the envelope's id (the parent of later handoffs). */
export interface StageHandoff<T> {
  readonly payload: T;
  readonly handoffId: string;
  readonly attempts: number;
}

/**
 * Wraps the payload in the envelope and runs it through handoffWithRepair (schema, semantic and
 * cross-reference layers against the files and context ids this run knows). Throws HandoffRejected.
 */
async function handOff<T>(env: StageEnvironment, request: StageHandoffRequest<T>): Promise<StageHandoff<T>> {
  const handoffId = env.ids.next();
  const accepted = await handoffWithRepair({
    draft: {
      sessionId: env.contextIds.workflowRunId,
      handoffId,
      source: request.source,
      target: request.target,
      payloadSchema: schemaRef(request.payloadName),
      trace: {
        traceId: env.contextIds.workflowRunId,
        depth: request.depth,
        ...(request.parentHandoffId === undefined ? {} : { parentHandoffId: request.parentHandoffId }),
      },
    },
    produce: feedback => request.produce(feedback),
    maxRepairs: env.options.maxRepairs,
    ...(request.repairs ? { repairs: request.repairs } : {}),
    registry: env.contracts,
    context: {
      known: {
        contextIds: env.knownContextIds,
        files: env.index.visiblePaths,
        ...(request.knownTickets === undefined ? {} : { ticketIds: request.knownTickets }),
      },
    },
    clock: env.clock,
    token: env.token,
  });
  return { payload: request.schema.parse(accepted.envelope.payload), handoffId, attempts: accepted.attempts };
}

/** The repair request sent back to a producing model: each finding with its fix. */
function repairFeedback(feedback: readonly ValidationError[] | undefined): ChatMessage[] {
  if (feedback === undefined || feedback.length === 0) return [];
  const lines = feedback
    .filter(error => error.severity === 'error')
    .map(
      error =>
        `- ${error.error_code} at ${error.path}: ${error.message}${error.actual ? ` (got ${error.actual})` : ''}. Fix: ${error.remediation}`,
    );
  return [
    {
      role: 'user',
      content: [
        'Your previous answer was rejected by validation:',
        ...lines,
        'Answer again with these problems fixed.',
      ].join('\n'),
    },
  ];
}

/** What a stage role asks its model for and hands on: the catalog payload, and the tool the model answers with. */
export interface DraftedPayload<T> {
  /** Catalog name of the payload, e.g. `discovery-report`. */
  readonly payloadName: string;
  readonly schema: z.ZodType<T>;
  /** The tool name and description the model is asked for. */
  readonly name: string;
  readonly description: string;
}

/** One handoff within a stage whose payload is built from a model's structured draft. */
export interface ModelDraftHandoffRequest<D, T> {
  readonly source: HandoffParty;
  readonly target: HandoffParty;
  /** Where this handoff sits in the run's chain. */
  readonly chain: ChainPosition;
  /** The draft schema built for this request (with its deterministic fixes, each reported), and the rendered prompt. */
  readonly draft: DraftRequest<D> & { readonly messages: readonly ChatMessage[]; readonly meter: UsageMeter };
  /** Turns the model's draft into the payload (ids, versions, curations). */
  complete(draft: D): T;
}

/** `handOff` with the payload produced by the model: a structured request, repaired with the handoff's findings. */
export function handOffModelDraft<D, T>(
  env: StageEnvironment,
  frame: Pick<StageFrame, 'stage' | 'knownTickets'>,
  payload: DraftedPayload<T>,
  request: ModelDraftHandoffRequest<D, T>,
): Promise<StageHandoff<T>> {
  const { source, target, chain, draft, complete } = request;
  // One repair loop per reply: the schema's repairs and the handoff's take from the same budget (at most 3 requests).
  const repairs = new RepairBudget(env.options.maxRepairs);
  const onNormalized = (changes: readonly string[]): void =>
    env.onProgress({
      kind: 'reply-normalized',
      stage: frame.stage,
      agentId: source.agentId,
      reply: payload.name,
      changes,
    });
  return handOff(env, {
    source,
    target,
    payloadName: payload.payloadName,
    schema: payload.schema,
    depth: chain.depth,
    ...(chain.parentHandoffId === undefined ? {} : { parentHandoffId: chain.parentHandoffId }),
    ...(frame.knownTickets === undefined ? {} : { knownTickets: frame.knownTickets }),
    repairs,
    produce: async feedback =>
      complete(
        await requestStructured(
          env.model,
          {
            schema: draft.schema,
            normalize: draft.normalize,
            onNormalized,
            name: payload.name,
            description: payload.description,
            messages: [...draft.messages, ...repairFeedback(feedback)],
            repairs,
            onRetry: (attempt, issues) =>
              env.onProgress({
                kind: 'reply-retried',
                stage: frame.stage,
                agentId: source.agentId,
                reply: payload.name,
                attempt,
                issues,
              }),
            usage: draft.meter,
          },
          env.token,
        ),
      ),
  });
}
