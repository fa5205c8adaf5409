import { closestMatch } from '../../closestMatch';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';
import type { DiscoveryCollectorContext } from '../schemas/curation';
import type { DiscoveryReport } from '../schemas/discovery';
import type { TicketAgentResult } from '../schemas/tickets';

/** One thing the audit found, as the run records it (the agent is added by the log). */
export type HandoffFinding = Omit<AgentAudit['findings'][number], 'agent'>;

/** What exists in the run when a result is handed on: the workspace's files and the context ids issued. */
export interface KnownIds {
  readonly files: ReadonlySet<string>;
  readonly contextIds: ReadonlySet<string>;
}

/**
 * Spec 003's audit of an accepted result (typed: the reply was checked and repaired against its own schema): what the
 * model wrote that refers to something must name something that exists, and its rules must hold. The ids Council
 * stamps on the result (its own id, upstream, discovery result, ticket) are not checked: Council issued them. It
 * repairs nothing and never stops the run; it is recorded.
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
  context: { code: 'REF-002', label: 'context id', severity: 'error', known: (k: KnownIds) => k.contextIds },
} as const;

/** A reference to `id` at `where` that must exist. */
interface Reference {
  readonly kind: keyof typeof REFERENCE;
  readonly id: string;
  readonly where: Where;
}

const file = (id: string, where: Where): Reference => ({ kind: 'file', id, where });
const context = (id: string, where: Where): Reference => ({ kind: 'context', id, where });

/** The references among `references` that name nothing known. */
function unknownReferences(references: readonly Reference[], known: KnownIds): HandoffFinding[] {
  return references.flatMap(({ kind, id, where }) => {
    const rule = REFERENCE[kind];
    const set = rule.known(known);
    if (set.has(id)) return [];
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

export const auditDiscoveryReport: PayloadAudit<DiscoveryReport> = (report, known) =>
  unknownReferences(
    report.fileReferences.map((ref, index) => file(ref.filePath, ['fileReferences', index, 'filePath'])),
    known,
  );

/** A proposal creates only new files, and changes or deletes existing ones. */
export const auditTicketResult: PayloadAudit<TicketAgentResult> = (result, known) => [
  ...result.proposedChanges.flatMap((change, index) =>
    change.kind === 'create' && known.files.has(change.path)
      ? [broken(`${change.path} already exists; use kind "modify"`, ['proposedChanges', index, 'path'])]
      : [],
  ),
  ...unknownReferences(
    result.proposedChanges.flatMap((change, index) =>
      change.kind === 'create' ? [] : [file(change.path, ['proposedChanges', index, 'path'])],
    ),
    known,
  ),
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
