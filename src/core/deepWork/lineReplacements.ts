import type { LineRangeReplacement } from '../plan/schemas/tickets';

/** A range edit that no longer fits the file (it changed since the proposal). */
export class StaleProposalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaleProposalError';
  }
}

/**
 * `text`, the content of `path`, with each line range replaced (ranges numbered as in `text`, applied bottom-up so
 * numbers stay valid). Keeps the file's line ending; throws StaleProposalError when a range lies beyond the file's end.
 */
export function applyLineReplacements(
  path: string,
  text: string,
  replacements: readonly LineRangeReplacement[],
): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const total = text.endsWith('\n') ? lines.length - 1 : lines.length;
  for (const r of [...replacements].sort((a, b) => b.startLine - a.startLine)) {
    if (r.endLine > total)
      throw new StaleProposalError(`${path}: lines ${r.startLine}-${r.endLine} are beyond the file's ${total} lines`);
    const added = r.newText === '' ? [] : r.newText.replace(/\r?\n$/, '').split(/\r?\n/);
    lines.splice(r.startLine - 1, r.endLine - r.startLine + 1, ...added);
  }
  return lines.join(eol);
}
