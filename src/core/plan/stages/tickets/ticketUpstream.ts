import type { DiscoveryCollectorContext, PlanningCollectorContext } from '../../schemas/curation';
import type { PlanningTicket } from '../../schemas/planning';

/** References shown when none touch the ticket's files. */
const FALLBACK_REFERENCES = 5;

/**
 * The slice of the curated contexts one ticket agent sees: the code-map references for the files its tasks touch,
 * the recommendations behind it, and the tickets it depends on (id and title only).
 */
export function ticketUpstream(
  ticket: PlanningTicket,
  discovery: DiscoveryCollectorContext,
  planning: PlanningCollectorContext,
): string {
  const files = new Set(ticket.tasks.flatMap(task => task.relatedFiles));
  const references = discovery.curation.unifiedCodeMap.deduplicatedReferences;
  const relevant = references.filter(ref => files.has(ref.filePath));
  const linked = new Set(ticket.discoveryLinks.map(link => link.referenceId));
  const byId = new Map(planning.curation.finalizedTickets.map(t => [t.ticketId, t]));
  const prerequisites = [
    ...ticket.dependencies,
    ...planning.curation.dependencyGraph
      .filter(edge => edge.toTicketId === ticket.ticketId)
      .map(edge => edge.fromTicketId),
  ];
  return JSON.stringify({
    codeReferences: relevant.length > 0 ? relevant : references.slice(0, FALLBACK_REFERENCES),
    modules: discovery.curation.unifiedCodeMap.modules.map(m => ({
      moduleName: m.moduleName,
      rootPath: m.rootPath,
      summary: m.summary,
    })),
    recommendations: discovery.curation.recommendations.filter(rec => linked.has(rec.recommendationId)),
    dependsOn: [...new Set(prerequisites)].map(id => ({ ticketId: id, title: byId.get(id)?.title ?? '(unknown)' })),
  });
}
