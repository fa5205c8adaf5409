import type { z } from 'zod';
import { addIssue } from './common';

/** What the graph checks read of a ticket: its id and the tickets it waits for. */
export interface TicketNode {
  readonly ticketId: string;
  readonly dependencies: readonly string[];
}
/** What the graph checks read of an edge: "from must be done before to". */
export interface TicketEdge {
  readonly fromTicketId: string;
  readonly toTicketId: string;
}

function successorsOf(tickets: readonly TicketNode[], deps: readonly TicketEdge[]): Map<string, string[]> {
  const successors = new Map<string, string[]>();
  const add = (from: string, to: string): void => {
    const list = successors.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    successors.set(from, list);
  };
  for (const ticket of tickets) for (const prerequisite of ticket.dependencies) add(prerequisite, ticket.ticketId);
  for (const edge of deps) add(edge.fromTicketId, edge.toTicketId);
  return successors;
}

/**
 * The first cycle in the ordering graph formed by tickets' `dependencies` and the explicit edges,
 * as a path that starts and ends on the same ticket (e.g. ["A", "B", "A"]); undefined when acyclic.
 */
export function findDependencyCycle(tickets: readonly TicketNode[], deps: readonly TicketEdge[]): string[] | undefined {
  const successors = successorsOf(tickets, deps);
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (node: string): string[] | undefined => {
    const seenAt = onPath.indexOf(node);
    if (seenAt >= 0) return [...onPath.slice(seenAt), node];
    if (done.has(node)) return undefined;
    onPath.push(node);
    for (const next of successors.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    onPath.pop();
    done.add(node);
    return undefined;
  };
  // Start from tickets in their given order so the reported cycle is stable and reads naturally.
  for (const node of [...tickets.map(ticket => ticket.ticketId), ...successors.keys()]) {
    const cycle = visit(node);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

/**
 * Graph rules for a finalized ticket set: every edge and dependency names a known ticket, no ticket
 * depends on itself, and the graph is acyclic (the cycle is named in the message).
 */
export function checkTicketGraph(
  tickets: readonly TicketNode[],
  deps: readonly TicketEdge[],
  ticketsField: string,
  graphField: string,
  ctx: z.RefinementCtx,
): void {
  const known = new Set(tickets.map(ticket => ticket.ticketId));
  tickets.forEach((ticket, index) => {
    ticket.dependencies.forEach((id, depIndex) => {
      if (!known.has(id)) addIssue(ctx, [ticketsField, index, 'dependencies', depIndex], `unknown ticket "${id}"`);
    });
  });
  deps.forEach((edge, index) => {
    if (!known.has(edge.fromTicketId))
      addIssue(ctx, [graphField, index, 'fromTicketId'], `unknown ticket "${edge.fromTicketId}"`);
    if (!known.has(edge.toTicketId))
      addIssue(ctx, [graphField, index, 'toTicketId'], `unknown ticket "${edge.toTicketId}"`);
    if (edge.fromTicketId === edge.toTicketId)
      addIssue(ctx, [graphField, index], `ticket "${edge.fromTicketId}" depends on itself`);
  });
  const cycle = findDependencyCycle(tickets, deps);
  if (cycle !== undefined) addIssue(ctx, [graphField], `ticket dependencies form a cycle: ${cycle.join(' -> ')}`);
}
