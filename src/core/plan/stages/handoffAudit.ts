import { closestMatch } from '../../closestMatch';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';
import type { DiscoveryCollectorContext } from '../schemas/curation';
import type { DiscoveryReport } from '../schemas/discovery';
import type { TicketAgentResult } from '../schemas/tickets';

/** One thing the audit found, as the run records it (the agent is added by the log). */
export type HandoffFinding = Omit<AgentAudit['findings'][number], 'agent'>;

/**
 * Spec 003's audit of an accepted result (typed: the reply was checked and repaired against its own schema): the files
 * the model cites must exist in the workspace, and its rules must hold. The ids Council stamps on the result, and the
 * context ids a model may cite (a closed list in its schema), are not checked: Council issued them. It repairs nothing
 * and never stops the run; it is recorded.
 */
export type PayloadAudit<T> = (payload: T, files: ReadonlySet<string>) => readonly HandoffFinding[];

type Where = readonly PropertyKey[];

/** `$.fileReferences[0].filePath` for `['fileReferences', 0, 'filePath']`. */
function jsonPath(path: Where): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    '$',
  );
}

/** A cited file at `where`. */
type FileReference = readonly [path: string, where: Where];

/** The cited files that are not in the workspace: a warning, as the work may create them. */
function unknownFiles(references: readonly FileReference[], files: ReadonlySet<string>): HandoffFinding[] {
  return references.flatMap(([path, where]) => {
    if (files.has(path)) return [];
    const near = closestMatch(path, files);
    return [
      {
        code: 'REF-001',
        severity: 'warning',
        message: `Unknown file: ${path}${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
        where: jsonPath(where),
      },
    ];
  });
}

/** A rule of the payload that does not hold. */
function broken(message: string, where: Where): HandoffFinding {
  return { code: 'SEM-005', severity: 'error', message, where: jsonPath(where) };
}

export const auditDiscoveryReport: PayloadAudit<DiscoveryReport> = (report, files) =>
  unknownFiles(
    report.fileReferences.map((ref, index) => [ref.filePath, ['fileReferences', index, 'filePath']]),
    files,
  );

/** A proposal creates only new files, and changes or deletes existing ones. */
export const auditTicketResult: PayloadAudit<TicketAgentResult> = (result, files) => [
  ...result.proposedChanges.flatMap((change, index) =>
    change.kind === 'create' && files.has(change.path)
      ? [broken(`${change.path} already exists; use kind "modify"`, ['proposedChanges', index, 'path'])]
      : [],
  ),
  ...unknownFiles(
    result.proposedChanges.flatMap((change, index): FileReference[] =>
      change.kind === 'create' ? [] : [[change.path, ['proposedChanges', index, 'path']]],
    ),
    files,
  ),
];

export const auditDiscoveryCuration: PayloadAudit<DiscoveryCollectorContext> = ({ curation }, files) =>
  unknownFiles(
    [
      ...curation.unifiedCodeMap.deduplicatedReferences.map((ref, index): FileReference => [
        ref.filePath,
        ['curation', 'unifiedCodeMap', 'deduplicatedReferences', index, 'filePath'],
      ]),
      ...curation.recommendations.flatMap((rec, index) =>
        rec.relatedFilePaths.map((path, at): FileReference => [
          path,
          ['curation', 'recommendations', index, 'relatedFilePaths', at],
        ]),
      ),
    ],
    files,
  );
