import { lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { applyLineReplacements, StaleProposalError } from '../../core/deepWork/lineReplacements';
import { readBoard } from '../../core/plan/pipelineBoard';
import type { ProposedChange } from '../../core/plan/schemas/tickets';
import { refusalMessage, refusedWrites, type IsSymbolicLink } from '../../core/plan/writablePath';
import type { RunFiles } from './runFiles';

/** What applying a ticket's changes did. */
export interface ApplyOutcome {
  readonly applied: boolean;
  /** The changes, as `kind path`. */
  readonly files: readonly string[];
  readonly message: string;
}

/** The absolute path of a project-relative one, or undefined when it would leave the project. */
function inside(project: string, path: string): string | undefined {
  const root = resolve(project);
  const full = resolve(root, path);
  return full.startsWith(root + sep) && !relative(root, full).split(sep).includes('..') ? full : undefined;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Whether a project-relative path is a symbolic link now (lstat: the link itself, not where it points). */
function isSymbolicLinkIn(project: string): IsSymbolicLink {
  return prefix =>
    lstat(join(project, prefix)).then(
      info => info.isSymbolicLink(),
      () => false, // missing: not a link (the write creates a real folder or file there)
    );
}

/** Each change's new content (undefined: delete), checked against the files as they are now; writes nothing. */
async function planned(project: string, changes: readonly ProposedChange[]): Promise<Map<string, string | undefined>> {
  const writes = new Map<string, string | undefined>();
  for (const change of changes) {
    const full = inside(project, change.path);
    if (!full) throw new StaleProposalError(`${change.path} is not a path inside the project`);
    switch (change.kind) {
      case 'create':
        if (await exists(full)) throw new StaleProposalError(`${change.path} already exists`);
        writes.set(full, change.content);
        break;
      case 'delete':
        if (!(await exists(full))) throw new StaleProposalError(`${change.path} does not exist`);
        writes.set(full, undefined);
        break;
      case 'modify': {
        const text = await readFile(full, 'utf8').catch(() => {
          throw new StaleProposalError(`${change.path} cannot be read to modify it`);
        });
        writes.set(
          full,
          change.edit.mode === 'full_content'
            ? change.edit.content
            : applyLineReplacements(change.path, text, change.edit.replacements),
        );
        break;
      }
    }
  }
  return writes;
}

/**
 * Applies one ticket's proposed changes to the project after `confirm` (shown the list of files) says yes; without it
 * nothing changes. A proposal with a change Council never writes (writablePath: by its text, or through a symbolic link
 * in the project) is refused whole, without asking.
 * Every change is checked against the files first, so a proposal that no longer fits changes nothing.
 */
export async function applyTicketChanges(
  project: string,
  runs: RunFiles,
  runId: string,
  ticketId: string,
  confirm: (files: readonly string[]) => Promise<boolean>,
): Promise<ApplyOutcome> {
  const read = await runs.read(runId);
  const proposal =
    read.kind === 'found'
      ? readBoard(read.run.state.blackboard).stages.tickets?.agentResults.find(r => r.ticketId === ticketId)
      : undefined;
  if (!proposal) return { applied: false, files: [], message: `There is no proposal for ${ticketId} in run ${runId}.` };
  const files = proposal.proposedChanges.map(change => `${change.kind} ${change.path}`);
  if (files.length === 0) return { applied: false, files, message: `${ticketId} proposes no file changes.` };
  // Model output is untrusted: a change to .git/ or .council/, or through a link, is refused before anyone is asked
  // (even with --yes), and so is the ticket.
  const refused = await refusedWrites(proposal.proposedChanges, isSymbolicLinkIn(project));
  if (refused.length > 0) return { applied: false, files, message: refusalMessage(ticketId, refused, 'council plan') };
  let writes: Map<string, string | undefined>;
  try {
    writes = await planned(project, proposal.proposedChanges);
  } catch (error) {
    if (!(error instanceof StaleProposalError)) throw error;
    return {
      applied: false,
      files,
      message: `Nothing applied: ${error.message}. The project changed since the proposal; run council plan again.`,
    };
  }
  if (!(await confirm(files)))
    return { applied: false, files, message: `Nothing applied: the changes for ${ticketId} were not confirmed.` };
  for (const [full, content] of writes) {
    if (content === undefined) await rm(full);
    else {
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content, 'utf8');
    }
  }
  return {
    applied: true,
    files,
    message: `Applied ${files.length} change${files.length === 1 ? '' : 's'} for ${ticketId}. Review them (e.g. git diff).`,
  };
}
