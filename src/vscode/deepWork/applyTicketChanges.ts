import * as vscode from 'vscode';
import type { RunStore } from './runStore';
import { boardOf } from '../../core/plan/pipelineBoard';
import { StaleProposalError } from '../../core/deepWork/lineReplacements';
import { refusalMessage, refusedWrites } from '../../core/plan/writablePath';
import { ticketWorkspaceEdit } from './ticketEdit';
import { workspaceSymbolicLinks } from './workspaceLinks';

/** What `council.applyTicketChanges` takes. */
export interface ApplyTicketChangesArgs {
  readonly runId: string;
  readonly ticketId: string;
  /**
   * The answer to the confirmation, when already known. The chat button never passes it, so a person always sees
   * the modal; tests pass it instead of clicking the modal's "Apply" (`true`) or dismissing it (`false`).
   */
  readonly confirmed?: boolean;
}

/** What the command did. */
export interface ApplyTicketChangesResult {
  readonly applied: boolean;
  /** The files the ticket's changes touch. */
  readonly files: readonly string[];
  readonly message: string;
}

async function confirm(ticketId: string, files: readonly string[]): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Apply the changes Council proposed for ${ticketId}?`,
    {
      modal: true,
      detail: `These files will be created, changed or deleted:\n\n${files.join('\n')}\n\nThe proposal was written by a language model: review it first.`,
    },
    'Apply',
  );
  return choice === 'Apply';
}

/**
 * Applies one ticket's proposed changes after an explicit, modal confirmation that lists the files; without it
 * nothing changes. Refused in an untrusted workspace, and (without the modal) for a proposal with a change Council
 * never writes (writablePath: by its text, or through a symbolic link in the workspace). Applied like a refactoring:
 * VS Code saves files it had to open (`files.refactoring.autoSave`), and Undo reverts the edit.
 */
export async function applyTicketChanges(
  runs: RunStore,
  args: ApplyTicketChangesArgs,
): Promise<ApplyTicketChangesResult> {
  const done = (applied: boolean, files: readonly string[], message: string): ApplyTicketChangesResult => {
    void (applied ? vscode.window.showInformationMessage(message) : vscode.window.showWarningMessage(message));
    return { applied, files, message };
  };
  if (!vscode.workspace.isTrusted)
    return done(false, [], 'Council does not change files in an untrusted workspace. Trust the workspace first.');
  const stored = runs.load(args.runId);
  const proposal = stored
    ? boardOf(stored.state.blackboard)?.stages.tickets?.agentResults.find(result => result.ticketId === args.ticketId)
    : undefined;
  if (!proposal) return done(false, [], `There is no proposal for ${args.ticketId} in run ${args.runId}.`);
  const files = proposal.proposedChanges.map(change => `${change.kind} ${change.path}`);
  if (files.length === 0) return done(false, [], `${args.ticketId} proposes no file changes.`);
  // Model output is untrusted: a change to .git/ or .council/, or through a link, is refused before the modal, and so
  // is the ticket.
  const refused = await refusedWrites(proposal.proposedChanges, workspaceSymbolicLinks());
  if (refused.length > 0) return done(false, files, refusalMessage(args.ticketId, refused, '/plan'));
  const confirmed = args.confirmed ?? (await confirm(args.ticketId, files));
  if (!confirmed) return done(false, files, `Nothing applied: the changes for ${args.ticketId} were not confirmed.`);
  let edit: vscode.WorkspaceEdit;
  try {
    edit = await ticketWorkspaceEdit(proposal.proposedChanges);
  } catch (error) {
    if (!(error instanceof StaleProposalError)) throw error;
    return done(
      false,
      files,
      `Nothing applied: ${error.message}. The workspace changed since the proposal; run /plan again.`,
    );
  }
  const applied = await vscode.workspace.applyEdit(edit);
  return applied
    ? done(
        true,
        files,
        `Applied ${files.length} change${files.length === 1 ? '' : 's'} for ${args.ticketId}. Review them (Undo reverts the edit).`,
      )
    : done(
        false,
        files,
        `Nothing applied: VS Code refused the edit for ${args.ticketId} (a file to create may already exist).`,
      );
}
