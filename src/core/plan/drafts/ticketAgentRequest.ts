import { isObject, orderRange, updateArray, type JsonObject } from '../../llm/replyNormalizing';
import { ticketAgentSchema, type TicketAgentVocabulary } from '../schemas/tickets';
import { draftRequest } from './draftRequest';
import { objectAt, textAt, type Note } from './normalizing';
import { usablePath } from './pathNormalizing';

/** A ticket agent request: the files that exist, and those it may change or delete (`citableFiles`; all when absent). */
type TicketAgentRequestVocabulary = TicketAgentVocabulary & {
  readonly citable?: ReadonlySet<string>;
};

/** Keeps the replacements that overlap none kept before them (first wins), each range in order. */
function normalizeReplacements(edit: JsonObject, path: string, note: Note): void {
  const kept: { start: number; end: number }[] = [];
  updateArray(edit, 'replacements', list =>
    list.filter(item => {
      orderRange(item, 'startLine', 'endLine', note, `of ${path}`);
      if (!isObject(item) || typeof item['startLine'] !== 'number' || typeof item['endLine'] !== 'number') return true;
      const [start, end] = [item['startLine'], item['endLine']];
      if (kept.some(range => start <= range.end && range.start <= end)) {
        note(`dropped the replacement of lines ${start}-${end} of ${path}: it overlaps an earlier one`);
        return false;
      }
      kept.push({ start, end });
      return true;
    }),
  );
}

/**
 * A change whose kind contradicts the workspace, read as intended: creating an existing file replaces its content,
 * a full rewrite of a missing file creates it; a range edit or deletion of a missing file is dropped (undefined).
 */
function reconcileWithWorkspace(
  change: JsonObject,
  path: string,
  files: ReadonlySet<string>,
  note: Note,
): JsonObject | undefined {
  const exists = files.has(path);
  const kind = change['kind'];
  if (kind === 'create' && exists) {
    note(`read the creation of existing file ${path} as a rewrite of it`);
    return {
      kind: 'modify',
      path,
      edit: { mode: 'full_content', content: change['content'] },
      rationale: change['rationale'],
    };
  }
  if ((kind === 'modify' || kind === 'delete') && !exists) {
    const edit = objectAt(change, 'edit');
    if (kind === 'modify' && edit?.['mode'] === 'full_content') {
      note(`read the rewrite of missing file ${path} as its creation`);
      return { kind: 'create', path, content: edit['content'], rationale: change['rationale'] };
    }
    note(`dropped the ${kind} of ${path}: not a file of the workspace`);
    return undefined;
  }
  return change;
}

/**
 * The ticket agent request. Its fixes: the assigned ticket id (filled in: not asked), usable paths, kinds that match the workspace, one change
 * per path, no overlapping ranges.
 */
export function ticketAgentRequest(vocabulary: TicketAgentRequestVocabulary) {
  const files = vocabulary.citable ?? vocabulary.files;
  return draftRequest(ticketAgentSchema({ files, ticketId: vocabulary.ticketId }), (reply, note) => {
    if (typeof reply['ticketId'] === 'string' && reply['ticketId'] !== vocabulary.ticketId) {
      note(`read ticketId "${reply['ticketId']}" as the assigned "${vocabulary.ticketId}"`);
      reply['ticketId'] = vocabulary.ticketId;
    }
    // Not asked (the schema sent leaves it out): the request's one ticket.
    reply['ticketId'] ??= vocabulary.ticketId;
    const seen = new Set<string>();
    updateArray(reply, 'proposedChanges', list =>
      list.flatMap(item => {
        const raw = textAt(item, 'path');
        if (!isObject(item) || raw === undefined) return [item];
        const path = usablePath(raw, 'changed file', note);
        if (path === undefined) return [];
        const change = reconcileWithWorkspace({ ...item, path }, path, vocabulary.files, note);
        if (change === undefined) return [];
        if (seen.has(path)) {
          note(`dropped a second change of ${path}: one change per file`);
          return [];
        }
        seen.add(path);
        const edit = objectAt(change, 'edit');
        if (edit?.['mode'] === 'replace_ranges') normalizeReplacements(edit, path, note);
        return [change];
      }),
    );
  });
}
