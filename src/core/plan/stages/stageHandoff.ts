import type { z } from 'zod';
import { ActionableError } from '../../actionableError';
import type { ChatMessage } from '../../llm/languageModel';
import { requestStructured } from '../../llm/structuredOutput';
import type { DraftRequest } from '../drafts/draftRequest';
import type { PipelineStage } from '../schemas/agentType';
import { publishedName } from '../schemas/catalog';
import { SCHEMA_VERSION } from '../schemas/version';
import { handoffFinding, type HandoffFinding, type PayloadAudit } from './handoffAudit';
import type { StageEnvironment } from './stageEnvironment';

/** What a stage role asks its model for: the tool the model answers with, and spec 003's checks on what it hands on. */
export interface DraftedPayload<T> {
  /** The tool name and description the model is asked for. */
  readonly name: string;
  readonly description: string;
  /** The payload's one schema: what Council built from the accepted draft is checked against it before it is handed on. */
  readonly schema: z.ZodType<T>;
  /** Spec 003's reference and rule checks on the payload (none when it refers to nothing its model wrote). */
  readonly audit?: PayloadAudit<T>;
}

/** Who hands a payload on (a stage's agent or collector) and where it goes: its own stage's collector, or the next stage (`report` after the last). */
export interface HandoffRoute {
  readonly stage: PipelineStage;
  readonly agentId: string;
  readonly to: PipelineStage | 'report';
}

/**
 * A reply drafted by `from`'s model (one structured request, built for this request with its deterministic fixes,
 * and its one repair loop), completed into the payload (ids, versions, curations), then checked and handed on.
 * Spec 003 §6's layers: the draft met its schema in the request; the record Council built from it must meet the
 * payload's schema too (SCH-001: a stage error the user can retry, never a damaged run found on resume); then the
 * semantic, constitutional and reference audit, whose findings go to the pass's log with the handoff's envelope
 * (errors also told as progress) and never stop the run.
 */
export async function handOffModelDraft<D, T>(
  env: StageEnvironment,
  route: HandoffRoute,
  tool: DraftedPayload<T>,
  draft: DraftRequest<D> & { readonly messages: readonly ChatMessage[] },
  complete: (draft: D) => T,
): Promise<T> {
  const { to, ...from } = route;
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
  const built = tool.schema.safeParse(payload);
  const findings = built.success
    ? (tool.audit?.(payload, env.index.visiblePaths) ?? [])
    : built.error.issues.map(issue =>
        handoffFinding('SCH-001', issue.path, issue.message, valueText(valueAt(payload, issue.path))),
      );
  // The envelope (spec 003 §2) beside the source agent; its run is the run whose files record it.
  const handoff = { to, at: env.clock.now(), payload: publishedName(tool.schema), schemaVersion: SCHEMA_VERSION };
  env.audit.checked++;
  env.audit.findings.push(...findings.map(finding => ({ ...finding, agent: from.agentId, handoff })));
  const errors = findings.filter(finding => finding.severity === 'error');
  if (errors.length > 0) env.onProgress({ kind: 'handoff-audited', ...from, findings: errors });
  if (!built.success) throw new ActionableError(schemaErrorMessage(from.agentId, tool.name, findings));
  return payload;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}

function valueText(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function schemaErrorMessage(agentId: string, payload: string, findings: readonly HandoffFinding[]): string {
  const first = findings[0];
  return (
    `Council built ${agentId}'s ${payload} wrongly (SCH-001 at ${first?.where ?? '$'}: ${first?.message ?? 'invalid'}` +
    `${findings.length > 1 ? `, and ${findings.length - 1} more` : ''}); nothing was handed on. ` +
    'Try again; if it recurs, report it.'
  );
}
