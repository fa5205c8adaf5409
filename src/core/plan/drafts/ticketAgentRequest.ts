import { z } from 'zod';
import { isObject, orderRange, updateArray, type JsonObject } from '../../llm/replyNormalizing';
import { FileEdit, LineRangeReplacement, ProposedChange, TicketAgentResultDraft } from '../schemas/tickets';
import type { DraftRequest } from './draftRequest';
import { objectAt, textAt, type Note } from './normalizing';
import { usablePath } from './pathNormalizing';
import { existingFile, lineNumber, newWorkspacePath, oneOf } from './requestEnums';

/** What a ticket agent request admits: the files that exist, those it may change, and the ticket it is about. */
export interface TicketAgentVocabulary {
  readonly files: ReadonlySet<string>;
  /** The existing files it may change or delete (`citableFiles`); all of `files` when absent. */
  readonly citable?: ReadonlySet<string>;
  readonly ticketId: string;
}

const [FULL_CONTENT, REPLACE_RANGES] = FileEdit.options;
const [CREATE, MODIFY, DELETE] = ProposedChange.options;

/** The ticket agent draft schema for this request: modify/delete name existing files, the ticket id is fixed. */
function ticketAgentSchema(vocabulary: TicketAgentVocabulary): z.ZodType<TicketAgentResultDraft> {
  const files = [...(vocabulary.citable ?? vocabulary.files)].sort();
  const replacement = LineRangeReplacement.safeExtend({
    startLine: lineNumber('First line replaced, 1-based, as numbered before the change.'),
    endLine: lineNumber('Last line replaced, inclusive; not before startLine.'),
  }).describe('A line range and its replacement.');
  const edit = z
    .discriminatedUnion('mode', [
      FULL_CONTENT,
      REPLACE_RANGES.safeExtend({
        replacements: z
          .array(replacement)
          .min(1)
          .describe('Line ranges that do not overlap each other, all numbered as in the file before the change.'),
      }).describe('Replace some line ranges.'),
    ])
    .describe('The edit to an existing file.');
  const change = z
    .discriminatedUnion('kind', [
      CREATE.safeExtend({ path: newWorkspacePath('File to create; must not be an existing file.') }).describe(
        'Create a new file.',
      ),
      MODIFY.safeExtend({ path: existingFile(files, 'Existing file to change.'), edit }).describe(
        'Change an existing file.',
      ),
      DELETE.safeExtend({ path: existingFile(files, 'Existing file to delete.') }).describe('Delete a file.'),
    ])
    .describe('A proposed change to one file.');
  return TicketAgentResultDraft.safeExtend({
    ticketId: oneOf([vocabulary.ticketId], 'Id of the ticket implemented.', 'Copy it exactly.'),
    proposedChanges: z.array(change).describe('Proposed file changes; at most one per path.'),
  }).describe('How a ticket agent would implement its ticket.');
}

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

/** Ticket agent fixes: the assigned ticket id, usable paths, kinds that match the workspace, one change per path, no overlapping ranges. */
function normalizeTicketAgent(vocabulary: TicketAgentVocabulary): (reply: unknown, note: Note) => unknown {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    if (typeof reply['ticketId'] === 'string' && reply['ticketId'] !== vocabulary.ticketId) {
      note(`read ticketId "${reply['ticketId']}" as the assigned "${vocabulary.ticketId}"`);
      reply['ticketId'] = vocabulary.ticketId;
    }
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
    return reply;
  };
}

/** The ticket agent request. */
export function ticketAgentRequest(vocabulary: TicketAgentVocabulary): DraftRequest<TicketAgentResultDraft> {
  return { schema: ticketAgentSchema(vocabulary), normalize: normalizeTicketAgent(vocabulary) };
}
