import type { ChatMessage } from '../../llm/languageModel';
import { requestStructured } from '../../llm/structuredOutput';
import type { DraftRequest } from '../drafts/draftRequest';
import type { AgentType } from '../schemas/agentType';
import type { PayloadAudit } from './handoffAudit';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';

/** Who hands a result on. */
export interface HandoffParty {
  readonly agentId: string;
  readonly agentType: AgentType;
}

/** What a stage role asks its model for: the tool the model answers with. */
export interface DraftedPayload {
  /** The tool name and description the model is asked for. */
  readonly name: string;
  readonly description: string;
}

/** One handoff within a stage whose payload is built from a model's structured draft. */
export interface ModelDraftHandoffRequest<D, T> {
  readonly source: HandoffParty;
  /** The draft schema built for this request (with its deterministic fixes, each reported), and the rendered prompt. */
  readonly draft: DraftRequest<D> & { readonly messages: readonly ChatMessage[] };
  /** Turns the model's draft into the payload (ids, versions, curations). */
  complete(draft: D): T;
  /** Spec 003's reference and rule checks on the payload, when it refers to anything its model wrote. */
  readonly audit?: PayloadAudit<T>;
}

/**
 * A reply drafted by the model (one structured request and its one repair loop), completed, then audited and handed
 * on: the audit's findings go to the pass's log (errors also told as progress); they never stop the run.
 */
export async function handOffModelDraft<D, T>(
  env: StageEnvironment,
  frame: Pick<StageFrame, 'stage'>,
  tool: DraftedPayload,
  request: ModelDraftHandoffRequest<D, T>,
): Promise<T> {
  const { source, draft, complete } = request;
  const progress = { stage: frame.stage, agentId: source.agentId, reply: tool.name };
  const drafted = await requestStructured(
    env.model,
    {
      schema: draft.schema,
      normalize: draft.normalize,
      onNormalized: changes => env.onProgress({ kind: 'reply-normalized', ...progress, changes }),
      name: tool.name,
      description: tool.description,
      messages: draft.messages,
      maxRepairs: env.options.maxRepairs,
      onToolRefused: message => env.onProgress({ kind: 'tool-schema-refused', ...progress, message }),
      onRetry: (attempt, issues) => env.onProgress({ kind: 'reply-retried', ...progress, attempt, issues }),
    },
    env.token,
  );
  const payload = complete(drafted);
  const findings = request.audit?.(payload, { files: env.index.visiblePaths, contextIds: env.knownContextIds }) ?? [];
  env.audit.record(source.agentId, findings);
  const errors = findings.filter(finding => finding.severity === 'error');
  if (errors.length > 0)
    env.onProgress({ kind: 'handoff-audited', stage: frame.stage, agentId: source.agentId, findings: errors });
  return payload;
}
