import { z } from 'zod';
import { addIssue, checkLineRange, nonBlank, requireUnique, workspacePath } from './common';
import { ContextId, contextIdOf } from './contextId';
import { agentRecordStamp } from './recordStamp';
import { existingFile, lineNumber, newWorkspacePath, oneOf } from './vocabulary';

/** What a ticket agent request admits: the existing files it may change or delete, and the ticket it is about. */
export interface TicketAgentVocabulary {
  readonly files: ReadonlySet<string>;
  readonly ticketId: string;
}

/** Replaces lines startLine..endLine (1-based, inclusive, numbered as in the file before the change). */
const LineRangeReplacement = z
  .object({
    startLine: lineNumber('First line replaced, 1-based, as numbered before the change.'),
    endLine: lineNumber('Last line replaced, inclusive; not before startLine.'),
    newText: z.string().describe('Replacement text for those lines; empty deletes them.'),
  })
  .superRefine(checkLineRange)
  .describe('A line range and its replacement.');
export type LineRangeReplacement = z.infer<typeof LineRangeReplacement>;

/** How an existing file changes: its whole new content, or replaced line ranges. */
const FileEdit = z
  .discriminatedUnion('mode', [
    z
      .object({
        mode: z.literal('full_content'),
        content: z.string().describe('The complete new content of the file.'),
      })
      .describe('Replace the whole file.'),
    z
      .object({
        mode: z.literal('replace_ranges'),
        replacements: z
          .array(LineRangeReplacement)
          .min(1)
          .describe('Line ranges that do not overlap each other, all numbered as in the file before the change.'),
      })
      .superRefine((value, ctx) => {
        const sorted = value.replacements
          .map((replacement, index) => ({ ...replacement, index }))
          .sort((a, b) => a.startLine - b.startLine);
        sorted.forEach((current, i) => {
          const previous = sorted[i - 1];
          if (previous !== undefined && current.startLine <= previous.endLine) {
            addIssue(
              ctx,
              ['replacements', current.index],
              `lines ${current.startLine}-${current.endLine} overlap lines ${previous.startLine}-${previous.endLine}`,
            );
          }
        });
      })
      .describe('Replace some line ranges.'),
  ])
  .describe('The edit to an existing file.');

/** A proposed change to one workspace file; modify and delete name one of `files` when given. */
function proposedChange(files: ReadonlySet<string> | undefined) {
  const created = 'File to create; must not be an existing file.';
  return z
    .discriminatedUnion('kind', [
      z
        .object({
          kind: z.literal('create'),
          path: files === undefined ? workspacePath(created) : newWorkspacePath(created),
          content: z.string().describe('The complete content of the new file.'),
          rationale: nonBlank('Why this file is needed.'),
        })
        .describe('Create a new file.'),
      z
        .object({
          kind: z.literal('modify'),
          path: existingFile(files, 'Existing file to change.'),
          edit: FileEdit,
          rationale: nonBlank('Why this change is needed.'),
        })
        .describe('Change an existing file.'),
      z
        .object({
          kind: z.literal('delete'),
          path: existingFile(files, 'Existing file to delete.'),
          rationale: nonBlank('Why the file goes.'),
        })
        .describe('Delete a file.'),
    ])
    .describe('A proposed change to one file.');
}
/** A proposed change to one workspace file. */
export type ProposedChange = z.infer<ReturnType<typeof proposedChange>>;

/** How far a ticket agent could check its own proposal. */
const VerificationStatus = z
  .enum(['verified', 'unverified', 'blocked'])
  .describe(
    'verified: checked against the code read; unverified: not checked; blocked: could not complete the ticket.',
  );

/** What a ticket agent model fills in, for one request's vocabulary (none: the published record's draft). */
export function ticketAgentSchema(vocabulary?: TicketAgentVocabulary) {
  return z
    .object({
      ticketId: oneOf(vocabulary && [vocabulary.ticketId], 'Id of the ticket implemented.', 'Copy it exactly.'),
      implementationSummary: nonBlank('Summary of the implementation.'),
      implementationPlan: z.array(nonBlank('A step.')).min(1).describe('Ordered implementation steps.'),
      proposedChanges: z
        .array(proposedChange(vocabulary?.files))
        .describe('Proposed file changes; at most one per path.'),
      testPlan: z.array(z.string()).describe('Tests to add or run to verify the change.'),
      verificationStatus: VerificationStatus,
    })
    .superRefine((value, ctx) =>
      requireUnique(ctx, value.proposedChanges, change => change.path, ['proposedChanges'], 'path'),
    )
    .describe('How a ticket agent would implement its ticket.');
}

/** A ticket agent's structured output: an implementation plan and proposed changes (not yet applied). */
export const TicketAgentResult = ticketAgentSchema()
  .safeExtend({
    ...agentRecordStamp('ticket-agent'),
    discoveryResultId: contextIdOf('discovery-collector').describe('Discovery collector result used.'),
    upstreamContextChain: z.array(ContextId).min(1).describe('Context ids from the workflow start to this result.'),
  })
  .describe('A ticket agent output.')
  .meta({ id: 'TicketAgentResult' });
export type TicketAgentResult = z.infer<typeof TicketAgentResult>;
