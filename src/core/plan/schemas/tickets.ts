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
    startLine: lineNumber('1-based.'),
    endLine: lineNumber('Inclusive; not before startLine.'),
    newText: z.string().describe('Replaces those lines; empty deletes them.'),
  })
  .superRefine(checkLineRange);
export type LineRangeReplacement = z.infer<typeof LineRangeReplacement>;

/** How an existing file changes: its whole new content, or replaced line ranges. */
const FileEdit = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('full_content'), content: z.string().describe('The complete new content.') }),
  z
    .object({
      mode: z.literal('replace_ranges'),
      replacements: z
        .array(LineRangeReplacement)
        .min(1)
        .describe('Ranges that do not overlap, all numbered as in the file before the change.'),
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
    }),
]);

/** A proposed change to one workspace file; modify and delete name one of `files` when given. */
function proposedChange(files: ReadonlySet<string> | undefined) {
  const created = 'Not an existing file.';
  // The kinds name the branches (create, modify, delete); the path's list or pattern says which files each takes.
  return z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('create'),
      path: files === undefined ? workspacePath(created) : newWorkspacePath(created),
      content: z.string().describe('The complete content.'),
      rationale: nonBlank(),
    }),
    z.object({ kind: z.literal('modify'), path: existingFile(files), edit: FileEdit, rationale: nonBlank() }),
    z.object({ kind: z.literal('delete'), path: existingFile(files), rationale: nonBlank() }),
  ]);
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
      ticketId:
        vocabulary === undefined
          ? oneOf(undefined, 'The assigned ticket.', 'Copy it exactly.')
          : // One value in a request: Council fills it in rather than asking for a copy.
            oneOf([vocabulary.ticketId], 'The assigned ticket.', 'Copy it exactly.').meta({
              notAsked: 'Council fills in the assigned ticket.',
            }),
      implementationSummary: nonBlank(),
      implementationPlan: z.array(nonBlank()).min(1).describe('Ordered steps.'),
      proposedChanges: z.array(proposedChange(vocabulary?.files)).describe('At most one per path.'),
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
