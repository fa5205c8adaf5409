import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { supersededRecord } from '../core/council/precedentStance';
import { decisionOfSession } from '../core/council/sessionDecision';
import type { SessionLog } from '../core/council/sessionLog';
import { isRecord, parseRecord } from '../core/decisions/decisionRecord';
import { readCatalog } from '../core/decisions/recordCatalog';
import { findRecordFolder } from '../core/decisions/recordFolder';
import { nextRecordName } from '../core/decisions/recordNaming';
import { renderRecord, titleFor } from '../core/decisions/renderRecord';
import { markSuperseded } from '../core/decisions/supersede';
import { spendSummary } from '../core/llm/spending/spendText';
import { NodeWorkspaceReader } from './nodeWorkspaceReader';

/** What `council record` did: written (with the path) or not, and the message to print. */
export interface RecordOutcome {
  readonly written: boolean;
  readonly message: string;
  readonly path?: string;
}

/**
 * `council record <id>`: the session's decision as a record in the project's decision folder and format, shown in
 * full first; written only when `confirm` says yes (or `--yes`), never over a file that exists. A decision against an
 * accepted record supersedes it (both files say so).
 */
export async function recordDecision(
  project: string,
  log: SessionLog,
  confirm: (draft: string, path: string, supersedes: string | undefined) => Promise<boolean>,
  options: { readonly folder?: string; readonly date?: string } = {},
): Promise<RecordOutcome> {
  const model = log.ledger.entries.find(line => line.model)?.model ?? 'unknown';
  const decision = decisionOfSession(log.snapshot, { model, cost: spendSummary(log.spent) });
  if (!decision)
    return {
      written: false,
      message: `Session ${log.sessionId} has no final answer yet (it is ${log.state}): a decision is recorded once the council has answered.`,
    };
  const reader = new NodeWorkspaceReader(project);
  const folder = await findRecordFolder(reader, options.folder);
  const catalog = await readCatalog(reader, folder.folder);
  const title = titleFor(decision);
  const { number, name } = nextRecordName(catalog.names, title);
  const path = `${folder.folder}/${name}`;
  const against = supersededRecord(log.snapshot);
  const old = against ? catalog.records.find(r => r.path === against.path) : undefined;
  const text = renderRecord({
    number,
    title,
    date: options.date ?? new Date().toISOString().slice(0, 10),
    format: folder.format,
    decision,
    ...(old
      ? { supersedes: { number: old.number, title: old.title, name: old.path.slice(old.path.lastIndexOf('/') + 1) } }
      : {}),
  });
  if (!(await confirm(text, path, old?.path)))
    return { written: false, message: `Nothing written: the record ${path} was not confirmed.` };
  const target = join(project, path);
  let oldText: string | undefined;
  if (old) {
    const current = await readFile(join(project, old.path), 'utf8');
    oldText = isRecord(parseRecord(old.path, current))
      ? markSuperseded(current, folder.format, number, title, name)
      : undefined;
    if (oldText === undefined)
      return { written: false, message: `Nothing written: ${old.path} has no status Council can mark superseded.` };
  }
  await mkdir(dirname(target), { recursive: true });
  try {
    // `wx`: fails when the file exists by now, so a record is never overwritten.
    await writeFile(target, text, { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { written: false, message: `Nothing written: ${path} exists, and Council never overwrites a record.` };
    throw error;
  }
  if (old && oldText !== undefined) await writeFile(join(project, old.path), oldText, 'utf8');
  return {
    written: true,
    path,
    message: `Wrote ${path} (status proposed)${old ? `; ${old.path} now reads superseded` : ''}. Propose it in a pull request.`,
  };
}
