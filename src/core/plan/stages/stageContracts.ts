import { PayloadContractRegistry } from '../handoff/contractRegistry';
import type { PayloadIssue, PayloadReference } from '../handoff/payloadContract';
import { schemaRef } from '../schemas/catalog';
import { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from '../schemas/curation';
import { DiscoveryReport } from '../schemas/discovery';
import { PlanningAgentResult } from '../schemas/planning';
import { TicketAgentResult } from '../schemas/tickets';

const file = (id: string, path: readonly PropertyKey[]): PayloadReference => ({ kind: 'file', id, path });
const context = (id: string, path: readonly PropertyKey[]): PayloadReference => ({ kind: 'context', id, path });
const ticket = (id: string, path: readonly PropertyKey[]): PayloadReference => ({ kind: 'ticket', id, path });

/** A proposal may only create files that do not exist yet (modify/delete targets are file references: REF-001). */
function checkCreates(
  result: TicketAgentResult,
  existing: ReadonlySet<string>,
  at: readonly PropertyKey[] = [],
): PayloadIssue[] {
  return result.proposedChanges.flatMap((change, index) =>
    change.kind === 'create' && existing.has(change.path)
      ? [
          {
            message: `${change.path} already exists`,
            path: [...at, 'proposedChanges', index, 'path'],
            remediation: 'Use kind "modify" for an existing file, or choose a new path.',
          },
        ]
      : [],
  );
}

function ticketResultReferences(result: TicketAgentResult, at: readonly PropertyKey[] = []): PayloadReference[] {
  return [
    ticket(result.ticketId, [...at, 'ticketId']),
    context(result.discoveryResultId, [...at, 'discoveryResultId']),
    ...result.proposedChanges.flatMap((change, index) =>
      change.kind === 'create' ? [] : [file(change.path, [...at, 'proposedChanges', index, 'path'])],
    ),
  ];
}

/**
 * The payload contracts of the pipeline's handoffs: agent -> collector (reports and results) and collector -> next
 * stage (curated contexts only). `existingFiles` (the visible files) backs the rules on cited, changed and created files.
 */
export function createStageContracts(existingFiles: ReadonlySet<string>): PayloadContractRegistry {
  return new PayloadContractRegistry()
    .register({
      schemaRef: schemaRef('discovery-report'),
      schema: DiscoveryReport,
      references: report => [
        context(report.upstreamContextId, ['upstreamContextId']),
        ...report.fileReferences.map((ref, index) => file(ref.filePath, ['fileReferences', index, 'filePath'])),
      ],
    })
    .register({
      schemaRef: schemaRef('planning-agent-result'),
      schema: PlanningAgentResult,
      references: result => [
        context(result.upstreamContextId, ['upstreamContextId']),
        context(result.discoveryResultId, ['discoveryResultId']),
      ],
    })
    .register({
      schemaRef: schemaRef('ticket-agent-result'),
      schema: TicketAgentResult,
      semantic: result => checkCreates(result, existingFiles),
      references: result => ticketResultReferences(result),
    })
    .register({
      schemaRef: schemaRef('discovery-collector-context'),
      schema: DiscoveryCollectorContext,
      references: ctx => [
        ...ctx.curation.unifiedCodeMap.deduplicatedReferences.map((ref, index) =>
          file(ref.filePath, ['curation', 'unifiedCodeMap', 'deduplicatedReferences', index, 'filePath']),
        ),
        ...ctx.curation.recommendations.flatMap((rec, index) => [
          ...rec.supportingDiscoveryIds.map((id, idIndex) =>
            context(id, ['curation', 'recommendations', index, 'supportingDiscoveryIds', idIndex]),
          ),
          ...rec.relatedFilePaths.map((path, pathIndex) =>
            file(path, ['curation', 'recommendations', index, 'relatedFilePaths', pathIndex]),
          ),
        ]),
      ],
    })
    .register({
      schemaRef: schemaRef('planning-collector-context'),
      schema: PlanningCollectorContext,
      semantic: ctx => {
        const known = new Set(ctx.curation.finalizedTickets.map(t => t.ticketId));
        return ctx.curation.dependencyGraph.flatMap((edge, index) =>
          [edge.fromTicketId, edge.toTicketId]
            .filter(id => !known.has(id))
            .map(id => ({
              message: `dependency names unknown ticket "${id}"`,
              path: ['curation', 'dependencyGraph', index],
            })),
        );
      },
      references: ctx => [context(ctx.curation.discoveryResultId, ['curation', 'discoveryResultId'])],
    })
    .register({
      schemaRef: schemaRef('ticket-collector-context'),
      schema: TicketCollectorContext,
      semantic: ctx =>
        ctx.curation.ticketAgentResults.flatMap((result, index) =>
          checkCreates(result, existingFiles, ['curation', 'ticketAgentResults', index]),
        ),
      references: ctx =>
        ctx.curation.ticketAgentResults.flatMap((result, index) =>
          ticketResultReferences(result, ['curation', 'ticketAgentResults', index]),
        ),
    });
}
