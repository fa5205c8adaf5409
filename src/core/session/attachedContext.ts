import type { AttachedItem, AttachedKind } from './attachedItem';

/** One attachment as the host read it, before any budget applies. */
export interface RawAttachment {
  readonly label: string;
  readonly kind: AttachedKind;
  /** The text read; absent for binary or unreadable files. */
  readonly text?: string;
  /** The file is not text: it is named, never included. */
  readonly binary?: boolean;
  /** The file lies outside every workspace folder (included because the user attached it explicitly). */
  readonly outsideWorkspace?: boolean;
  /** Why it could not be read; the item is named with this note instead of failing the request. */
  readonly unreadable?: string;
}

/** How much attached text the prompts carry, in characters. */
export interface AttachmentBudget {
  /** Most characters of one item. */
  readonly perItemChars: number;
  /** Most characters of all items together. */
  readonly totalChars: number;
}

/**
 * What the council's prompts carry: about 6k tokens per file and 20k in all, so a few files fit beside the
 * request and the debate record of a typical 128k-token model. The prompts prune attachments first when tighter.
 */
export const DEFAULT_ATTACHMENT_BUDGET: AttachmentBudget = { perItemChars: 24_000, totalChars: 80_000 };

/** Persona selection only needs the gist of each attachment. */
export const SELECTION_ATTACHMENT_BUDGET: AttachmentBudget = { perItemChars: 1_500, totalChars: 6_000 };

/** The smallest remainder worth showing of a file that does not fit whole. */
const MIN_USEFUL_CHARS = 200;

/** `text` cut to at most `limit` characters, at a line end when one is in the second half. */
function cutText(text: string, limit: number): string {
  const head = text.slice(0, limit);
  const lineEnd = head.lastIndexOf('\n');
  return lineEnd > limit / 2 ? head.slice(0, lineEnd) : head;
}

function joinNotes(notes: readonly (string | undefined)[]): string | undefined {
  const present = notes.filter((n): n is string => n !== undefined && n !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}

/**
 * Bounds attachments for the prompts, in order: each item gets at most `perItemChars`, and all together at most
 * `totalChars`; what is cut or left out says so in its note. Binary files are named without content, unreadable
 * ones carry why, files outside the workspace are marked. Never throws: an attachment can only add a note.
 */
export function boundAttachments(
  raw: readonly RawAttachment[],
  budget: AttachmentBudget = DEFAULT_ATTACHMENT_BUDGET,
): AttachedItem[] {
  let left = budget.totalChars;
  return raw.map(item => {
    const outside = item.outsideWorkspace
      ? 'Outside the workspace folder; included because the user attached it explicitly.'
      : undefined;
    const base = { label: item.label, kind: item.kind };
    if (item.unreadable !== undefined)
      return { ...base, note: joinNotes([`Could not be read (${item.unreadable}); not included.`, outside]) };
    if (item.binary)
      return { ...base, note: joinNotes(['Binary file: named only, its content is not included.', outside]) };
    const text = item.text ?? '';
    // A few dozen characters of a file would mislead more than they tell: below that, leave it out whole.
    if (text.length > 0 && left < Math.min(text.length, MIN_USEFUL_CHARS, budget.perItemChars / 4)) {
      return {
        ...base,
        note: joinNotes([
          `Not included: the ${budget.totalChars}-character budget for attached context was used up by earlier items.`,
          outside,
        ]),
      };
    }
    const limit = Math.min(budget.perItemChars, left);
    if (text.length <= limit) {
      left -= text.length;
      return { ...base, content: text, ...(outside ? { note: outside } : {}) };
    }
    const kept = cutText(text, limit);
    left -= kept.length;
    const why =
      limit < budget.perItemChars
        ? `the ${budget.totalChars}-character budget for attached context`
        : `the ${budget.perItemChars}-character limit per item`;
    return {
      ...base,
      content: kept,
      note: joinNotes([`Cut to the first ${kept.length} of ${text.length} characters to fit ${why}.`, outside]),
    };
  });
}

/** Bounds already bounded items again, tighter (e.g. for persona selection); earlier notes are kept. */
export function rebound(items: readonly AttachedItem[], budget: AttachmentBudget): AttachedItem[] {
  const bounded = boundAttachments(
    items.map(i => ({ label: i.label, kind: i.kind, text: i.content ?? '' })),
    budget,
  );
  return bounded.map((b, index) => {
    const original = items[index];
    const note = joinNotes([original?.note, b.note]);
    return {
      label: b.label,
      kind: b.kind,
      ...(original?.content !== undefined ? { content: b.content ?? '' } : {}),
      ...(note ? { note } : {}),
    };
  });
}

/** Identifies an attachment across turns: the same file or selection attached twice is one item. */
export function attachmentKey(item: Pick<AttachedItem, 'kind' | 'label'>): string {
  return `${item.kind}:${item.label}`;
}

/** `existing` followed by the items of `added` it does not have yet (the first copy wins: it is what the council saw). */
export function mergeAttachments(existing: readonly AttachedItem[], added: readonly AttachedItem[]): AttachedItem[] {
  const seen = new Set(existing.map(attachmentKey));
  const merged = [...existing];
  for (const item of added) {
    const key = attachmentKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(item);
  }
  return merged;
}
