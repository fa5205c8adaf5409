import type { ChatMessage } from '../../llm/languageModel';
import { ActionableError } from '../../actionableError';
import { requestStructured } from '../../llm/structuredOutput';
import type { DraftRequest } from '../drafts/draftRequest';
import { auditHandoff } from '../handoff/auditHandoff';
import type { HandoffEnvelope, HandoffParty } from '../handoff/envelope';
import type { PipelineStage } from '../schemas/agentType';
import { schemaRef } from '../schemas/catalog';
import type { StageEnvironment } from './stageEnvironment';
import type { ChainPosition, StageFrame } from './stageFrame';

/** One handoff a stage makes: who to whom, which catalog payload, where in the trace, and the payload itself. */
interface StageHandoffRequest<T> {
  readonly stage: PipelineStage;
  readonly source: HandoffParty;
  readonly target: HandoffParty;
  /** Catalog name of the payload, e.g. `discovery-report`; its registered contract has the payload's schema. */
  readonly payloadName: string;
  readonly chain: ChainPosition;
  /** Ticket ids that exist, when the payload refers to tickets. */
  readonly knownTickets?: ReadonlySet<string>;
  readonly payload: T;
}

/** A handoff made: the payload (its contract's defaults applied) and the envelope's id (the parent of later ones). */
export interface StageHandoff<T> {
  readonly payload: T;
  readonly handoffId: string;
}

/**
 * Wraps an accepted payload in its envelope and audits it (schema, semantic and cross-reference layers against the
 * files and context ids this run knows). The findings go to the pass's audit log; errors are also told as progress.
 * A payload its own contract rejects is Council's fault, not the model's (the draft schema already held): it throws.
 */
function handOff<T>(env: StageEnvironment, request: StageHandoffRequest<T>): StageHandoff<T> {
  const handoffId = env.ids.next();
  const { source, chain } = request;
  const now = env.clock.now();
  const envelope: HandoffEnvelope = {
    sessionId: env.contextIds.workflowRunId,
    handoffId,
    source,
    target: request.target,
    payloadSchema: schemaRef(request.payloadName),
    payload: request.payload,
    timestamp: now,
    trace: {
      traceId: env.contextIds.workflowRunId,
      depth: chain.depth,
      ...(chain.parentHandoffId === undefined ? {} : { parentHandoffId: chain.parentHandoffId }),
    },
  };
  const audit = auditHandoff(envelope, env.contracts, {
    now,
    known: {
      contextIds: env.knownContextIds,
      files: env.index.visiblePaths,
      ...(request.knownTickets === undefined ? {} : { ticketIds: request.knownTickets }),
    },
  });
  env.audit.record(source.agentId, audit.findings);
  if (!audit.envelope) {
    const first = audit.findings[0];
    throw new ActionableError(
      `Council built a ${request.payloadName} that its own contract rejects (${first ? `${first.error_code} at ${first.path}: ${first.message}` : 'no detail'}). Try again; if it repeats, report it with the run's metadata.json.`,
    );
  }
  const errors = audit.findings.filter(finding => finding.severity === 'error');
  if (errors.length > 0)
    env.onProgress({ kind: 'handoff-audited', stage: request.stage, agentId: source.agentId, findings: errors });
  // The audit parsed the payload with its contract, which is the payload's own schema: no second parse.
  return { payload: audit.envelope.payload as T, handoffId };
}

/** What a stage role asks its model for and hands on: the catalog payload, and the tool the model answers with. */
export interface DraftedPayload {
  /** Catalog name of the payload, e.g. `discovery-report`. */
  readonly payloadName: string;
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
  readonly draft: DraftRequest<D> & { readonly messages: readonly ChatMessage[] };
  /** Turns the model's draft into the payload (ids, versions, curations). */
  complete(draft: D): T;
}

/** A reply drafted by the model (one structured request and its one repair loop), completed, then handed off. */
export async function handOffModelDraft<D, T>(
  env: StageEnvironment,
  frame: Pick<StageFrame, 'stage' | 'knownTickets'>,
  payload: DraftedPayload,
  request: ModelDraftHandoffRequest<D, T>,
): Promise<StageHandoff<T>> {
  const { source, target, chain, draft, complete } = request;
  const progress = { stage: frame.stage, agentId: source.agentId, reply: payload.name };
  const drafted = await requestStructured(
    env.model,
    {
      schema: draft.schema,
      normalize: draft.normalize,
      onNormalized: changes => env.onProgress({ kind: 'reply-normalized', ...progress, changes }),
      name: payload.name,
      description: payload.description,
      messages: draft.messages,
      maxRepairs: env.options.maxRepairs,
      onRetry: (attempt, issues) => env.onProgress({ kind: 'reply-retried', ...progress, attempt, issues }),
    },
    env.token,
  );
  return handOff(env, {
    stage: frame.stage,
    source,
    target,
    payloadName: payload.payloadName,
    chain,
    ...(frame.knownTickets === undefined ? {} : { knownTickets: frame.knownTickets }),
    payload: complete(drafted),
  });
}
