import { closestMatch } from '../../closestMatch';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';
import type { DiscoveryCollectorContext } from '../schemas/curation';
import type { DiscoveryReport } from '../schemas/discovery';
import type { TicketAgentResult } from '../schemas/tickets';
import { unwritableReason } from '../writablePath';
import { HANDOFF_RULES, type HandoffCode } from './handoffCatalogue';

/** One thing the audit found, in spec 003 §6.2's shape (the agent and the handoff's envelope are added by the log). */
export type HandoffFinding = Omit<AgentAudit['findings'][number], 'agent' | 'handoff'>;

/**
 * Spec 003's semantic, constitutional and cross-reference checks of an accepted result (typed: the reply was checked
 * against its own schema, and the record Council built from it too): the files it cites must exist in the workspace,
 * and its rules and Council's principles must hold. The ids Council stamps on the result, and the context ids a model
 * may cite (a closed list in its schema), are not checked: Council issued them. It repairs nothing and never stops the
 * run; it is recorded.
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

/** A finding of `code` at `where`, with the catalogue's severity, expectation and remediation. */
export function handoffFinding(code: HandoffCode, where: Where, message: string, actual: string): HandoffFinding {
  const { severity, expected, remediation } = HANDOFF_RULES[code];
  return { code, severity, message, where: jsonPath(where), expected, actual, remediation };
}

/** A cited file at `where`. */
type FileReference = readonly [path: string, where: Where];

/** REF-001: the cited files that are not in the workspace, with the nearest one (a warning: the work may create them). */
function unknownFiles(references: readonly FileReference[], files: ReadonlySet<string>): HandoffFinding[] {
  return references.flatMap(([path, where]) => {
    if (files.has(path)) return [];
    const near = closestMatch(path, files);
    return [
      handoffFinding(
        'REF-001',
        where,
        `Unknown file: ${path}${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
        path,
      ),
    ];
  });
}

/** SEM-001 (a report that found nothing), SEM-002 (a tag it doubts), REF-001. */
export const auditDiscoveryReport: PayloadAudit<DiscoveryReport> = (report, files) => [
  ...(report.fileReferences.length === 0
    ? [handoffFinding('SEM-001', ['fileReferences'], 'The report cites no file', 'no file references')]
    : []),
  ...report.semanticTags.flatMap((tag, index) =>
    tag.confidence < 0.3
      ? [
          handoffFinding(
            'SEM-002',
            ['semanticTags', index, 'confidence'],
            `Tag ${tag.tagId} has a confidence of ${tag.confidence}`,
            String(tag.confidence),
          ),
        ]
      : [],
  ),
  ...unknownFiles(
    report.fileReferences.map((ref, index) => [ref.filePath, ['fileReferences', index, 'filePath']]),
    files,
  ),
];

/** SEM-005 (create only new files), CON-001 (never what Council may not write: its state, `.git`), REF-001 (what it changes exists). */
export const auditTicketResult: PayloadAudit<TicketAgentResult> = (result, files) => [
  ...result.proposedChanges.flatMap((change, index) =>
    change.kind === 'create' && files.has(change.path)
      ? [
          handoffFinding(
            'SEM-005',
            ['proposedChanges', index, 'path'],
            `${change.path} already exists; use kind "modify"`,
            change.path,
          ),
        ]
      : [],
  ),
  ...result.proposedChanges.flatMap((change, index) =>
    unwritableReason(change.path) === undefined
      ? []
      : [
          handoffFinding(
            'CON-001',
            ['proposedChanges', index, 'path'],
            `The proposal would ${change.kind} ${change.path}`,
            change.path,
          ),
        ],
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
