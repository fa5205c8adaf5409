import { dedupeArray, isObject, objectsAt, updateArray, type JsonObject } from '../../llm/replyNormalizing';
import { findDependencyCycle, type TicketEdge, type TicketNode } from '../schemas/dependencyGraph';
import { dropItems, renameDuplicateIds, textAt, type Note, textsAt } from './normalizing';
import { normalizePathList } from './pathNormalizing';

/** The tickets' graph as the cycle finder reads it (items of another shape are skipped). */
function graphOf(
  tickets: readonly JsonObject[],
  edges: readonly JsonObject[],
): { nodes: TicketNode[]; arcs: TicketEdge[] } {
  const nodes = tickets.flatMap(ticket =>
    typeof ticket['ticketId'] === 'string'
      ? [
          {
            ticketId: ticket['ticketId'],
            dependencies: Array.isArray(ticket['dependencies'])
              ? ticket['dependencies'].filter((d): d is string => typeof d === 'string')
              : [],
          },
        ]
      : [],
  );
  const arcs = edges.flatMap(edge => {
    const [from, to] = [edge['fromTicketId'], edge['toTicketId']];
    return typeof from === 'string' && typeof to === 'string' ? [{ fromTicketId: from, toTicketId: to }] : [];
  });
  return { nodes, arcs };
}

/**
 * Breaks every dependency cycle deterministically: the edge that closes the first cycle found (in ticket order)
 * is dropped, from the tickets' `dependencies` and from `edges` alike, and noted; repeated until acyclic.
 */
export function breakDependencyCycles(
  owner: unknown,
  ticketsKey: string,
  edgesKey: string | undefined,
  note: Note,
): void {
  const tickets = objectsAt(owner, ticketsKey);
  const limit =
    tickets.reduce((n, t) => n + (Array.isArray(t['dependencies']) ? t['dependencies'].length : 0), 0) +
    (edgesKey ? objectsAt(owner, edgesKey).length : 0);
  for (let round = 0; round <= limit; round++) {
    const { nodes, arcs } = graphOf(objectsAt(owner, ticketsKey), edgesKey ? objectsAt(owner, edgesKey) : []);
    const cycle = findDependencyCycle(nodes, arcs);
    if (cycle === undefined || cycle.length < 2) return;
    const to = cycle[cycle.length - 1] ?? '';
    const from = cycle[cycle.length - 2] ?? '';
    for (const ticket of objectsAt(owner, ticketsKey)) {
      if (ticket['ticketId'] === to && Array.isArray(ticket['dependencies']))
        ticket['dependencies'] = ticket['dependencies'].filter(dep => dep !== from);
    }
    if (edgesKey)
      updateArray(owner, edgesKey, edges =>
        edges.filter(edge => !(isObject(edge) && edge['fromTicketId'] === from && edge['toTicketId'] === to)),
      );
    note(`dropped the dependency ${from} -> ${to}, which closed the cycle ${cycle.join(' -> ')}`);
  }
}

/** Ticket fixes every ticket list shares: ids distinct, task ids distinct, paths workspace-relative, dependencies once, none on itself. */
export function normalizeTickets(owner: unknown, key: string, note: Note): void {
  renameDuplicateIds([{ items: objectsAt(owner, key), field: 'ticketId' }], 'ticketId', note);
  for (const ticket of objectsAt(owner, key)) {
    renameDuplicateIds(
      [{ items: objectsAt(ticket, 'tasks'), field: 'taskId' }],
      `taskId of ${String(ticket['ticketId'])}`,
      note,
    );
    for (const task of objectsAt(ticket, 'tasks')) normalizePathList(task, 'relatedFiles', 'related file', note);
    dedupeArray(ticket, 'dependencies', undefined, `dependency of ${String(ticket['ticketId'])}`, note);
    dropItems(
      ticket,
      'dependencies',
      dep => dep !== ticket['ticketId'],
      dep => `dropped the self-dependency of ticket "${String(dep)}"`,
      note,
    );
  }
}

/** Drops dependencies and edges naming tickets not in the list, self edges and repeated edges (a finalized graph is closed). */
export function closeTicketGraph(owner: unknown, ticketsKey: string, edgesKey: string, note: Note): void {
  const known = new Set(textsAt(owner, ticketsKey, 'ticketId'));
  for (const ticket of objectsAt(owner, ticketsKey)) {
    dropItems(
      ticket,
      'dependencies',
      dep => typeof dep !== 'string' || known.has(dep),
      dep => `dropped the dependency of "${String(ticket['ticketId'])}" on unknown ticket "${String(dep)}"`,
      note,
    );
  }
  const seen = new Set<string>();
  dropItems(
    owner,
    edgesKey,
    edge => {
      if (!isObject(edge)) return true;
      const [from, to] = [textAt(edge, 'fromTicketId'), textAt(edge, 'toTicketId')];
      if (from === undefined || to === undefined) return true;
      const key = `${from}\u0000${to}`;
      const keep = from !== to && known.has(from) && known.has(to) && !seen.has(key);
      seen.add(key);
      return keep;
    },
    edge =>
      `dropped the dependency edge ${String(textAt(edge, 'fromTicketId'))} -> ${String(textAt(edge, 'toTicketId'))}: unknown, self or repeated ticket`,
    note,
  );
}
