import type { TicketDependency, PlanningTicket } from '../schemas/planning';
import type { DiagramRepresentation } from '../schemas/discovery';

/** A Mermaid node id: letters, digits and underscores only. */
function nodeId(raw: string): string {
  return `n_${raw.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** A quoted Mermaid label (quotes, backticks and angle brackets removed: inside quotes the rest is safe). */
function label(raw: string): string {
  return `"${raw
    .replace(/["`<>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}"`;
}

/** A discovery diagram as a Mermaid flowchart. */
export function mermaidOfDiagram(diagram: DiagramRepresentation): string {
  const lines = ['flowchart LR'];
  for (const node of diagram.nodes)
    lines.push(`  ${nodeId(node.nodeId)}[${label(node.filePath ? `${node.label} (${node.filePath})` : node.label)}]`);
  for (const edge of diagram.edges) {
    lines.push(
      `  ${nodeId(edge.fromNodeId)} -->${edge.label ? `|${label(edge.label)}|` : ''} ${nodeId(edge.toNodeId)}`,
    );
  }
  return lines.join('\n');
}

/** The ticket dependency graph as a Mermaid flowchart (an arrow points from prerequisite to dependent). */
export function mermaidOfTickets(tickets: readonly PlanningTicket[], edges: readonly TicketDependency[]): string {
  const lines = ['flowchart TD'];
  for (const ticket of tickets)
    lines.push(`  ${nodeId(ticket.ticketId)}[${label(`${ticket.ticketId}: ${ticket.title}`)}]`);
  const seen = new Set<string>();
  const add = (from: string, to: string, kind?: string) => {
    const key = `${from}->${to}`;
    if (seen.has(key)) return;
    seen.add(key);
    lines.push(`  ${nodeId(from)} -->${kind ? `|${label(kind)}|` : ''} ${nodeId(to)}`);
  };
  for (const edge of edges) add(edge.fromTicketId, edge.toTicketId, edge.dependencyType);
  for (const ticket of tickets) for (const prerequisite of ticket.dependencies) add(prerequisite, ticket.ticketId);
  return lines.join('\n');
}
