import type { WorkspaceReader } from '../workspace/workspaceReader';
import { isRecord, parseRecord, recordNumber, type DecisionRecord, type MalformedRecord } from './decisionRecord';

/** The records in one folder, by number, and the files that could not be read as records. */
export interface RecordCatalog {
  readonly records: readonly DecisionRecord[];
  readonly malformed: readonly MalformedRecord[];
  /** Every file name in the folder, so a new record never takes one. */
  readonly names: readonly string[];
}

/** Most records a folder is read for (a team with more has a different problem). */
const MAX_RECORDS = 2000;

/** Reads every `NNNN-*.md` in `folder`; templates and READMEs are not records and are left out silently. */
export async function readCatalog(reader: WorkspaceReader, folder: string): Promise<RecordCatalog> {
  const files = await reader.listFiles(`${folder}/*.md`, MAX_RECORDS);
  const records: DecisionRecord[] = [];
  const malformed: MalformedRecord[] = [];
  const names = files.map(f => f.path.slice(f.path.lastIndexOf('/') + 1));
  for (const file of files) {
    if (recordNumber(file.path) === undefined) continue;
    const text = (await reader.readRange(file.path, 1, 100_000))?.text;
    const parsed =
      text === undefined ? { path: file.path, reason: 'it could not be read' } : parseRecord(file.path, text);
    if (isRecord(parsed)) records.push(parsed);
    else malformed.push(parsed);
  }
  records.sort((a, b) => a.number - b.number);
  return { records, malformed, names };
}
