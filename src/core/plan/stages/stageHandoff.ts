import type { ChatMessage } from '../../llm/languageModel';
import { requestStructured } from '../../llm/structuredOutput';
import type { DraftRequest } from '../drafts/draftRequest';
import type { PipelineStage } from '../schemas/agentType';
import type { PayloadAudit } from './handoffAudit';
import type { StageEnvironment } from './stageEnvironment';

/** What a stage role asks its model for: the tool the model answers with, and spec 003's checks on what it hands on. */
export interface DraftedPayload<T> {
  /** The tool name and description the model is asked for. */
  readonly name: string;
  readonly description: string;
  /** Spec 003's reference and rule checks on the payload (none when it refers to nothing its model wrote). */
  readonly audit?: PayloadAudit<T>;
}

/**
 * A reply drafted by `from`'s model (one structured request, built for this request with its deterministic fixes,
 * and its one repair loop), completed into the payload (ids, versions, curations), then audited and handed on: the
 * audit's findings go to the pass's log (errors also told as progress); they never stop the run.
 */
export async function handOffModelDraft<D, T>(
  env: StageEnvironment,
  from: { readonly stage: PipelineStage; readonly agentId: string },
  tool: DraftedPayload<T>,
  draft: DraftRequest<D> & { readonly messages: readonly ChatMessage[] },
  complete: (draft: D) => T,
): Promise<T> {
  const progress = { ...from, reply: tool.name };
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
      onRetry: attempt => env.onProgress({ kind: 'reply-retried', ...progress, attempt }),
    },
    env.token,
  );
  const payload = complete(drafted);
  const findings = tool.audit?.(payload, env.index.visiblePaths) ?? [];
  env.audit.checked++;
  env.audit.findings.push(...findings.map(finding => ({ ...finding, agent: from.agentId })));
  const errors = findings.filter(finding => finding.severity === 'error');
  if (errors.length > 0) env.onProgress({ kind: 'handoff-audited', ...from, findings: errors });
  return payload;
}
