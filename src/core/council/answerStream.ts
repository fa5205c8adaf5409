/*
 * The final answer arrives from the model as a stream of Markdown chunks. Each chunk is shown as soon as it is
 * safe to show: headings outside code blocks are demoted to bold (as `untrusted` does for whole texts), and a
 * persona who is not on this council is never named — such a name is replaced as it streams. Text is held back
 * only while it could still turn into something that must change: a line start that may become a heading or a
 * fence, or a word that may become a forbidden name.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^(\s{0,3})#{1,6}\s+(.*)$/;
/** A line start that may still become a heading or a fence marker. */
const UNDECIDED_START = /^\s{0,3}(#{1,6}|`{1,2}|~{1,2})?$/;
const DECIDES_AS_SPECIAL = /^\s{0,3}(#{1,6}(\s|$)|`{3}|~{3})/;

/** What replaces a persona's name when that persona is not on the council. */
export const NOT_ON_COUNCIL = '[not on this council]';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isWordChar(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}_]/u.test(character);
}

/** Sanitizes a streamed answer; `push` returns what may be shown now, `end` the rest. */
export class AnswerStream {
  private readonly names: RegExp | undefined;
  private readonly lowerNames: readonly string[];
  private line = '';
  private shownInLine = 0;
  private fence: string | undefined;

  /** @param forbiddenNames personas who are not on this council (matched whole-word, any case) */
  constructor(forbiddenNames: readonly string[]) {
    const names = forbiddenNames.map(n => n.trim()).filter(n => n.length > 0);
    this.lowerNames = names.map(n => n.toLowerCase());
    this.names =
      names.length > 0
        ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'giu')
        : undefined;
  }

  push(chunk: string): string {
    let out = '';
    for (const piece of chunk.split(/(\n)/)) {
      if (piece === '\n') out += this.endLine();
      else if (piece !== '') {
        this.line += piece;
        out += this.showSafePart();
      }
    }
    return out;
  }

  end(): string {
    if (this.line === '' && this.shownInLine === 0) return '';
    const rest = this.finishLine();
    this.line = '';
    this.shownInLine = 0;
    return rest;
  }

  private endLine(): string {
    const rest = this.finishLine();
    this.line = '';
    this.shownInLine = 0;
    return `${rest}\n`;
  }

  /** The part of the current line not shown yet, transformed as a complete line. */
  private finishLine(): string {
    if (this.shownInLine > 0) return this.replaceNames(this.line.slice(this.shownInLine));
    const marker = FENCE.exec(this.line)?.[1];
    if (marker && (this.fence === undefined || marker.startsWith(this.fence))) {
      this.fence = this.fence === undefined ? marker : undefined;
      return this.line;
    }
    if (this.fence !== undefined) return this.line;
    return this.replaceNames(this.line.replace(HEADING, '$1**$2**'));
  }

  /** Shows what of an unfinished line can no longer change. */
  private showSafePart(): string {
    if (this.shownInLine === 0) {
      // A heading or fence line is transformed whole at its end; an undecided start waits.
      if (UNDECIDED_START.test(this.line) || DECIDES_AS_SPECIAL.test(this.line)) return '';
    }
    const safeEnd = this.line.length - this.heldTail(this.line);
    if (safeEnd <= this.shownInLine) return '';
    const shown = this.replaceNames(this.line.slice(this.shownInLine, safeEnd));
    this.shownInLine = safeEnd;
    return shown;
  }

  /** Length of the longest tail (starting at a word boundary) that is the start of a forbidden name, or one in full. */
  private heldTail(text: string): number {
    if (this.lowerNames.length === 0) return 0;
    const lower = text.toLowerCase();
    const longest = Math.max(...this.lowerNames.map(n => n.length));
    for (let start = Math.max(0, lower.length - longest); start < lower.length; start++) {
      if (isWordChar(lower[start - 1])) continue;
      const tail = lower.slice(start);
      if (this.lowerNames.some(name => name.startsWith(tail))) return lower.length - start;
    }
    return 0;
  }

  private replaceNames(text: string): string {
    return this.names ? text.replace(this.names, NOT_ON_COUNCIL) : text;
  }
}
