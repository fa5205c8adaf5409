import { z } from 'zod';
import { addIssue, checkLineRange, nonBlank, requireUnique, workspacePath, draftSchema } from './common';
import { ContextId, contextIdOf } from './contextId';
import { agentRecordStamp } from './recordStamp';

/** Replaces lines startLine..endLine (1-based, inclusive, numbered as in the file before the change). */
export const LineRangeReplacement = z
  .object({
    startLine: z.number().int().min(1).describe('First line replaced, 1-based, as numbered before the change.'),
    endLine: z.number().int().min(1).describe('Last line replaced, inclusive; >= startLine.'),
    newText: z.string().describe('Replacement text for those lines; empty deletes them.'),
  })
  .superRefine(checkLineRange)
  .describe('A line range and its replacement.');
/** A line range and its replacement. */
export type LineRangeReplacement = z.infer<typeof LineRangeReplacement>;

/** How an existing file changes: its whole new content, or replaced line ranges. */
export const FileEdit = z
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
          .describe('Non-overlapping line ranges, all numbered as in the file before the change.'),
      })
      .superRefine((value, ctx) => {
        const sorted = value.replacements
          .map((replacement, index) => ({ ...replacement, index }))
          .sort((a, b) => a.startLine - b.startLine);
        for (let i = 1; i < sorted.length; i++) {
          const previous = sorted[i - 1];
          const current = sorted[i];
          if (previous !== undefined && current !== undefined && current.startLine <= previous.endLine) {
            addIssue(
              ctx,
              ['replacements', current.index],
              `lines ${current.startLine}-${current.endLine} overlap lines ${previous.startLine}-${previous.endLine}`,
            );
          }
        }
      })
      .describe('Replace some line ranges.'),
  ])
  .describe('The edit to an existing file.');
/** How an existing file changes. */
export type FileEdit = z.infer<typeof FileEdit>;

/** A proposed change to one workspace file. */
export const ProposedChange = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('create'),
        path: workspacePath('File to create; must not exist yet.'),
        content: z.string().describe('The complete content of the new file.'),
        rationale: nonBlank('Why this file is needed.'),
      })
      .describe('Create a new file.'),
    z
      .object({
        kind: z.literal('modify'),
        path: workspacePath('Existing file to change.'),
        edit: FileEdit,
        rationale: nonBlank('Why this change is needed.'),
      })
      .describe('Change an existing file.'),
    z
      .object({
        kind: z.literal('delete'),
        path: workspacePath('Existing file to delete.'),
        rationale: nonBlank('Why the file goes.'),
      })
      .describe('Delete a file.'),
  ])
  .describe('A proposed change to one file.');
/** A proposed change to one workspace file. */
export type ProposedChange = z.infer<typeof ProposedChange>;

/** How far a ticket agent could check its own proposal. */
const VerificationStatus = z
  .enum(['verified', 'unverified', 'blocked'])
  .describe(
    'verified: checked against the code read; unverified: not checked; blocked: could not complete the ticket.',
  );

const draftShape = {
  ticketId: nonBlank('Id of the ticket implemented.'),
  implementationSummary: nonBlank('Summary of the implementation.'),
  implementationPlan: z.array(nonBlank('A step.')).min(1).describe('Ordered implementation steps.'),
  proposedChanges: z.array(ProposedChange).describe('Proposed file changes; at most one per path.'),
  testPlan: z.array(z.string()).describe('Tests to add or run to verify the change.'),
  verificationStatus: VerificationStatus,
};
type TicketContent = z.infer<z.ZodObject<typeof draftShape>>;

function checkTicketResult(value: TicketContent, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.proposedChanges, change => change.path, ['proposedChanges'], 'path');
}

/** What a ticket agent model fills in. */
export const TicketAgentResultDraft = draftSchema(
  draftShape,
  checkTicketResult,
  'How a ticket agent would implement its ticket.',
);
/** What a ticket agent model fills in. */
export type TicketAgentResultDraft = z.infer<typeof TicketAgentResultDraft>;

/** A ticket agent's structured output: an implementation plan and proposed changes (not yet applied). */
export const TicketAgentResult = z
  .object({
    ...agentRecordStamp('ticket-agent'),
    discoveryResultId: contextIdOf('discovery-collector').describe('Discovery collector result used.'),
    ...draftShape,
    upstreamContextChain: z.array(ContextId).min(1).describe('Context ids from the workflow start to this result.'),
  })
  .superRefine(checkTicketResult)
  .describe('A ticket agent output.')
  .meta({ id: 'TicketAgentResult' });
/** A ticket agent's structured output. */
export type TicketAgentResult = z.infer<typeof TicketAgentResult>;
