import { workspacePathProblem } from './schemas/common';
import type { ProposedChange } from './schemas/tickets';

/** Why Council never writes a path a proposal names. */
export type UnwritableReason = 'git-state' | 'council-state' | 'outside-workspace' | 'symbolic-link';

/** What Council never writes, as the end of "Council never writes …". */
const NEVER_WRITES: Record<UnwritableReason, string> = {
  'git-state': "Git's own state (.git/)",
  'council-state': 'its own state (.council/)',
  'outside-workspace':
    'a path that is not plainly inside the workspace (absolute, "..", a drive letter, a backslash or empty)',
  'symbolic-link': 'through a symbolic link (it may lead anywhere, .git/ included)',
};

/**
 * A folder name as a case-insensitive file system reads it: lower case, without an NTFS stream (`.git::$DATA`) or the
 * trailing dots and spaces Windows drops (`.git.`), as Git itself guards `.git` (core.protectNTFS).
 */
function folderName(segment: string): string {
  return (segment.split(':')[0] ?? '').replace(/[. ]+$/, '').toLowerCase();
}

/** `.git` and its 8.3 short name on Windows. */
const GIT_NAMES = new Set(['.git', 'git~1']);

/**
 * Why Council may not write `path` (a proposal's workspace-relative path), or undefined when it may. Any segment
 * counts, not only the first: in a multi-root workspace a path starts with its folder's name, and a nested
 * repository has its own `.git`. `.gitignore`, `.github/` and `docs/council.md` are ordinary files.
 */
export function unwritableReason(path: string): UnwritableReason | undefined {
  if (workspacePathProblem(path) !== undefined) return 'outside-workspace';
  // The last segment counts too: writing or deleting `.git` itself (a file in a Git worktree) is Git's state.
  const names = path.split('/').map(folderName);
  if (names.some(name => GIT_NAMES.has(name))) return 'git-state';
  if (names.includes('.council')) return 'council-state';
  return undefined;
}

/** One proposed change Council refuses to write. */
export interface RefusedChange {
  readonly kind: ProposedChange['kind'];
  readonly path: string;
  readonly reason: UnwritableReason;
  /** For `symbolic-link`: the first part of the path that is a link (`docs/notes`). */
  readonly link?: string;
}

/** The changes of a proposal Council may not write, in order. */
export function refusedChanges(changes: readonly Pick<ProposedChange, 'kind' | 'path'>[]): RefusedChange[] {
  return changes.flatMap(({ kind, path }) => {
    const reason = unwritableReason(path);
    return reason === undefined ? [] : [{ kind, path, reason }];
  });
}

/**
 * Whether a workspace-relative path (a prefix of a proposed path) is a symbolic link on disk now; false when it does
 * not exist. Each door answers it from its own file system.
 */
export type IsSymbolicLink = (prefix: string) => Promise<boolean>;

/** `docs`, `docs/notes`, …, up to the path itself. */
function prefixes(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'));
}

/**
 * The first part of `path` that is a symbolic link, from the outermost folder down to the file itself, or undefined.
 * A write follows links, so `create docs/notes/hooks/pre-commit` with `docs/notes -> ../.git` would land in
 * `.git/hooks/`, whatever the path's text says. The file itself counts for every kind: a create over a link (even
 * one to nothing yet) would write where it points.
 */
async function linkOnPath(path: string, isSymbolicLink: IsSymbolicLink): Promise<string | undefined> {
  for (const prefix of prefixes(path)) if (await isSymbolicLink(prefix)) return prefix;
  return undefined;
}

/**
 * What Apply refuses: the changes `refusedChanges` refuses by their text, then those whose path goes through a
 * symbolic link on disk now (asked of `isSymbolicLink`), in order. Both doors check this before their confirmation.
 */
export async function refusedWrites(
  changes: readonly Pick<ProposedChange, 'kind' | 'path'>[],
  isSymbolicLink: IsSymbolicLink,
): Promise<RefusedChange[]> {
  const refused: RefusedChange[] = [];
  for (const change of changes) {
    const byText = refusedChanges([change]);
    // A path refused by its text is never looked up on disk (it may be absolute or leave the workspace).
    if (byText.length > 0) refused.push(...byText);
    else {
      const link = await linkOnPath(change.path, isSymbolicLink);
      if (link !== undefined) refused.push({ kind: change.kind, path: change.path, reason: 'symbolic-link', link });
    }
  }
  return refused;
}

/**
 * "modify .git/config" (an empty path quoted, so it still shows); a change refused for a link names it:
 * "create docs/notes/hooks/pre-commit (docs/notes is a symbolic link)".
 */
function changeText(change: RefusedChange): string {
  const text = `${change.kind} ${change.path.trim() === '' ? JSON.stringify(change.path) : change.path}`;
  return change.link === undefined ? text : `${text} (${change.link} is a symbolic link)`;
}

/** "a, b and c" (or "a, b or c"). */
function listText(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1) ?? ''}`;
}

/** Why a proposal cannot be applied: "would modify .git/config, and Council never writes Git's own state (.git/)". */
export function refusalReason(refused: readonly RefusedChange[]): string {
  const reasons = [...new Set(refused.map(change => change.reason))].map(reason => NEVER_WRITES[reason]);
  return `would ${listText(refused.map(changeText), 'and')}, and Council never writes ${listText(reasons, 'or')}`;
}

/** What the user can do instead; `planAgain` is the door's command ("/plan", "council plan"). */
export function refusalAdvice(planAgain: string): string {
  return `Apply the other changes by hand, or run ${planAgain} again.`;
}

/**
 * What Apply says when it refuses a proposal. Nothing of it is written: all or nothing, since the rest of a ticket
 * was planned together with the refused change and may not stand without it.
 */
export function refusalMessage(ticketId: string, refused: readonly RefusedChange[], planAgain: string): string {
  return `Nothing applied: the proposal for ${ticketId} ${refusalReason(refused)}. ${refusalAdvice(planAgain)}`;
}
