import type { z } from 'zod';
import {
  DiscoveryCollectorResult,
  discoveryCollectorSchema,
  PlanningCollectorResult,
  planningCollectorSchema,
  TicketCollectorResult,
  ticketCollectorSchema,
} from './collectors';
import { ContextId } from './contextId';
import { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from './curation';
import { DelegationTemplate } from './delegation';
import { DiscoveryReport, discoveryReportSchema } from './discovery';
import { PlanningAgentResult, planningAgentSchema } from './planning';
import { PreviousContext } from './previousContext';
import { TicketAgentResult, ticketAgentSchema } from './tickets';

/** A pipeline payload schema published as JSON Schema. */
export interface CatalogEntry {
  /** Kebab-case name, used in file names. */
  readonly name: string;
  readonly schema: z.ZodType;
  /**
   * `record`: a full payload exchanged between agents (handoffs, storage).
   * `draft`: the part a model fills in through a tool call (without a request's vocabulary); the pipeline stamps ids
   *   and version on it.
   * `value`: a single value used inside payloads (the context id).
   */
  readonly role: 'record' | 'draft' | 'value';
}

/** Every published pipeline schema, in a stable order. */
export const PIPELINE_SCHEMAS: readonly CatalogEntry[] = [
  { name: 'context-id', schema: ContextId, role: 'value' },
  { name: 'previous-context', schema: PreviousContext, role: 'record' },
  { name: 'delegation-template', schema: DelegationTemplate, role: 'record' },
  { name: 'discovery-report', schema: DiscoveryReport, role: 'record' },
  { name: 'discovery-report-draft', schema: discoveryReportSchema(), role: 'draft' },
  { name: 'discovery-collector-result', schema: DiscoveryCollectorResult, role: 'record' },
  { name: 'discovery-collector-result-draft', schema: discoveryCollectorSchema(), role: 'draft' },
  { name: 'discovery-collector-context', schema: DiscoveryCollectorContext, role: 'record' },
  { name: 'planning-agent-result', schema: PlanningAgentResult, role: 'record' },
  { name: 'planning-agent-result-draft', schema: planningAgentSchema(), role: 'draft' },
  { name: 'planning-collector-result', schema: PlanningCollectorResult, role: 'record' },
  { name: 'planning-collector-result-draft', schema: planningCollectorSchema(), role: 'draft' },
  { name: 'planning-collector-context', schema: PlanningCollectorContext, role: 'record' },
  { name: 'ticket-agent-result', schema: TicketAgentResult, role: 'record' },
  { name: 'ticket-agent-result-draft', schema: ticketAgentSchema(), role: 'draft' },
  { name: 'ticket-collector-result', schema: TicketCollectorResult, role: 'record' },
  { name: 'ticket-collector-result-draft', schema: ticketCollectorSchema(), role: 'draft' },
  { name: 'ticket-collector-context', schema: TicketCollectorContext, role: 'record' },
];

/** The published name of a payload's schema (the envelope's payload schema), e.g. `discovery-report`. */
export function publishedName(schema: z.ZodType): string {
  const entry = PIPELINE_SCHEMAS.find(candidate => candidate.schema === schema);
  if (!entry) throw new Error('A handed-on payload must have a published schema (schemas/catalog.ts).');
  return entry.name;
}
