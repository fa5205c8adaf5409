import type { z } from 'zod';
import {
  DiscoveryCollectorResult,
  DiscoveryCollectorResultDraft,
  PlanningCollectorResult,
  PlanningCollectorResultDraft,
  TicketCollectorResult,
  TicketCollectorResultDraft,
} from './collectors';
import { ContextId } from './contextId';
import { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from './curation';
import { DelegationTemplate, DelegationTemplateDraft } from './delegation';
import { DiscoveryReport, DiscoveryReportDraft } from './discovery';
import { PlanningAgentResult, PlanningAgentResultDraft } from './planning';
import { PreviousContext } from './previousContext';
import { TicketAgentResult, TicketAgentResultDraft } from './tickets';

/** A pipeline payload schema published as JSON Schema. */
export interface CatalogEntry {
  /** Kebab-case name, used in file names. */
  readonly name: string;
  readonly schema: z.ZodType;
  /**
   * `record`: a full payload exchanged between agents (handoffs, storage).
   * `draft`: the part a model fills in through a tool call; the pipeline stamps ids and version on it.
   * `value`: a single value used inside payloads (the context id).
   */
  readonly role: 'record' | 'draft' | 'value';
}

/** Every published pipeline schema, in a stable order. */
export const PIPELINE_SCHEMAS: readonly CatalogEntry[] = [
  { name: 'context-id', schema: ContextId, role: 'value' },
  { name: 'previous-context', schema: PreviousContext, role: 'record' },
  { name: 'delegation-template', schema: DelegationTemplate, role: 'record' },
  { name: 'delegation-template-draft', schema: DelegationTemplateDraft, role: 'draft' },
  { name: 'discovery-report', schema: DiscoveryReport, role: 'record' },
  { name: 'discovery-report-draft', schema: DiscoveryReportDraft, role: 'draft' },
  { name: 'discovery-collector-result', schema: DiscoveryCollectorResult, role: 'record' },
  { name: 'discovery-collector-result-draft', schema: DiscoveryCollectorResultDraft, role: 'draft' },
  { name: 'discovery-collector-context', schema: DiscoveryCollectorContext, role: 'record' },
  { name: 'planning-agent-result', schema: PlanningAgentResult, role: 'record' },
  { name: 'planning-agent-result-draft', schema: PlanningAgentResultDraft, role: 'draft' },
  { name: 'planning-collector-result', schema: PlanningCollectorResult, role: 'record' },
  { name: 'planning-collector-result-draft', schema: PlanningCollectorResultDraft, role: 'draft' },
  { name: 'planning-collector-context', schema: PlanningCollectorContext, role: 'record' },
  { name: 'ticket-agent-result', schema: TicketAgentResult, role: 'record' },
  { name: 'ticket-agent-result-draft', schema: TicketAgentResultDraft, role: 'draft' },
  { name: 'ticket-collector-result', schema: TicketCollectorResult, role: 'record' },
  { name: 'ticket-collector-result-draft', schema: TicketCollectorResultDraft, role: 'draft' },
  { name: 'ticket-collector-context', schema: TicketCollectorContext, role: 'record' },
];
