import { closestMatch } from '../../closestMatch';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';
import type { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from '../schemas/curation';
import type { DiscoveryReport } from '../schemas/discovery';
import type { PlanningAgentResult } from '../schemas/planning';
import type { TicketAgentResult } from '../schemas/tickets';

/** One thing the audit found, as the run records it (the agent is added by the log). */
export type HandoffFinding = Omit<AgentAudit['findings'][number], 'agent'>;

/** What exists in the run when a result is handed on: the workspace's files, the context ids and ticket ids issued. */
export interface KnownIds {
  readonly files: ReadonlySet<string>;
  readonly contextIds: ReadonlySet<string>;
  /** Ticket ids that exist, when the stage's results refer to tickets. */
  readonly ticketIds?: ReadonlySet<string>;
}

/**
 * Spec 003's audit of an accepted result (typed: the reply was checked and repaired against its own schema): what it
 * refers to must exist, and its rules must hold. It repairs nothing and never stops the run; it is recorded.
 */
export type PayloadAudit<T> = (payload: T, known: KnownIds) => readonly HandoffFinding[];

type Where = readonly PropertyKey[];

/** `$.fileReferences[0].filePath` for `['fileReferences', 0, 'filePath']`. */
function jsonPath(path: Where): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    '$',
  );
}

const REFERENCE = {
  // A file may be one the work will create: a warning.
  file: { code: 'REF-001', label: 'file', severity: 'warning', known: (k: KnownIds) => k.files },
  context: { code: 'REF-002', label: 'upstream context id', severity: 'error', known: (k: KnownIds) => k.contextIds },
  ticket: { code: 'REF-003', label: 'ticket id', severity: 'error', known: (k: KnownIds) => k.ticketIds },
} as const;

/** A reference to `id` at `where` that must exist. */
interface Reference {
  readonly kind: keyof typeof REFERENCE;
  readonly id: string;
  readonly where: Where;
}

const file = (id: string, where: Where): Reference => ({ kind: 'file', id, where });
const context = (id: string, where: Where): Reference => ({ kind: 'context', id, where });
const ticket = (id: string, where: Where): Reference => ({ kind: 'ticket', id, where });

/** The references among `references` that name nothing known (a kind the run does not track is not checked). */
function unknownReferences(references: readonly Reference[], known: KnownIds): HandoffFinding[] {
  return references.flatMap(({ kind, id, where }) => {
    const rule = REFERENCE[kind];
    const set = rule.known(known);
    if (!set || set.has(id)) return [];
    const near = closestMatch(id, set);
    return [
      {
        code: rule.code,
        severity: rule.severity,
        message: `Unknown ${rule.label}: ${id}${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
        where: jsonPath(where),
      },
    ];
  });
}

/** A rule of the payload that does not hold. */
function broken(message: string, where: Where): HandoffFinding {
  return { code: 'SEM-005', severity: 'error', message, where: jsonPath(where) };
}

/** A proposal may only create files that do not exist yet. */
function creates(result: TicketAgentResult, files: ReadonlySet<string>, at: Where): HandoffFinding[] {
  return result.proposedChanges.flatMap((change, index) =>
    change.kind === 'create' && files.has(change.path)
      ? [broken(`${change.path} already exists; use kind "modify"`, [...at, 'proposedChanges', index, 'path'])]
      : [],
  );
}

function ticketResultReferences(result: TicketAgentResult, at: Where): Reference[] {
  return [
    ticket(result.ticketId, [...at, 'ticketId']),
    context(result.discoveryResultId, [...at, 'discoveryResultId']),
    ...result.proposedChanges.flatMap((change, index) =>
      change.kind === 'create' ? [] : [file(change.path, [...at, 'proposedChanges', index, 'path'])],
    ),
  ];
}

export const auditDiscoveryReport: PayloadAudit<DiscoveryReport> = (report, known) =>
  unknownReferences(
    [
      context(report.upstreamContextId, ['upstreamContextId']),
      ...report.fileReferences.map((ref, index) => file(ref.filePath, ['fileReferences', index, 'filePath'])),
    ],
    known,
  );

export const auditPlanningResult: PayloadAudit<PlanningAgentResult> = (result, known) =>
  unknownReferences(
    [
      context(result.upstreamContextId, ['upstreamContextId']),
      context(result.discoveryResultId, ['discoveryResultId']),
    ],
    known,
  );

export const auditTicketResult: PayloadAudit<TicketAgentResult> = (result, known) => [
  ...creates(result, known.files, []),
  ...unknownReferences(ticketResultReferences(result, []), known),
];

export const auditDiscoveryCuration: PayloadAudit<DiscoveryCollectorContext> = ({ curation }, known) =>
  unknownReferences(
    [
      ...curation.unifiedCodeMap.deduplicatedReferences.map((ref, index) =>
        file(ref.filePath, ['curation', 'unifiedCodeMap', 'deduplicatedReferences', index, 'filePath']),
      ),
      ...curation.recommendations.flatMap((rec, index) => [
        ...rec.supportingDiscoveryIds.map((id, at) =>
          context(id, ['curation', 'recommendations', index, 'supportingDiscoveryIds', at]),
        ),
        ...rec.relatedFilePaths.map((path, at) =>
          file(path, ['curation', 'recommendations', index, 'relatedFilePaths', at]),
        ),
      ]),
    ],
    known,
  );

export const auditPlanningCuration: PayloadAudit<PlanningCollectorContext> = ({ curation }, known) => {
  const tickets = new Set(curation.finalizedTickets.map(t => t.ticketId));
  return [
    ...curation.dependencyGraph.flatMap((edge, index) =>
      [edge.fromTicketId, edge.toTicketId]
        .filter(id => !tickets.has(id))
        .map(id => broken(`dependency names unknown ticket "${id}"`, ['curation', 'dependencyGraph', index])),
    ),
    ...unknownReferences([context(curation.discoveryResultId, ['curation', 'discoveryResultId'])], known),
  ];
};

export const auditTicketCuration: PayloadAudit<TicketCollectorContext> = ({ curation }, known) =>
  curation.ticketAgentResults.flatMap((result, index) => {
    const at = ['curation', 'ticketAgentResults', index];
    return [...creates(result, known.files, at), ...unknownReferences(ticketResultReferences(result, at), known)];
  });

/** What the audit read and found during one pass through a stage, as the engine records it with the phase. */
export class HandoffAuditLog {
  private checked = 0;
  private readonly findings: AgentAudit['findings'] = [];

  record(agent: string, findings: readonly HandoffFinding[]): void {
    this.checked++;
    for (const finding of findings) this.findings.push({ ...finding, agent });
  }

  get audit(): AgentAudit {
    return { checked: this.checked, findings: [...this.findings] };
  }
}
