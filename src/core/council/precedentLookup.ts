import { findPrecedent, precedentPrompt } from '../decisions/precedent';
import { readCatalog } from '../decisions/recordCatalog';
import { findRecordFolder } from '../decisions/recordFolder';
import type { SessionPrecedent } from '../session/precedent';
import type { CouncilDeps, DecisionRecordsSource } from './ports';
import type { SessionLog } from './sessionLog';

/** Most prompt tokens the earlier decisions may add to one council request. */
export const PRECEDENT_MAX_TOKENS = 600;

/** The records bearing on `request` (BM25, no model request), or undefined when none does. */
async function findSessionPrecedent(
  request: string,
  source: DecisionRecordsSource,
): Promise<SessionPrecedent | undefined> {
  const folder = await findRecordFolder(source.reader, source.folder);
  const catalog = await readCatalog(source.reader, folder.folder);
  const found = findPrecedent(request, catalog.records);
  const prompt = precedentPrompt(found, PRECEDENT_MAX_TOKENS);
  if (prompt === '') return undefined;
  const records = found
    .filter(p => prompt.includes(`adr-${p.record.number}`))
    .map(({ record }) => ({ path: record.path, number: record.number, title: record.title, status: record.status }));
  return { records, prompt };
}

/** "3. Use PostgreSQL (accepted)" for each record. */
function earlierDecisionsText(precedent: SessionPrecedent): string {
  return precedent.records.map(r => `${r.number}. ${r.title} (${r.status})`).join('; ');
}

/**
 * Once per session, as it opens: the team's earlier decisions that bear on the request, stored with the session and
 * named to the user. A folder that cannot be read leaves the council without precedent rather than failing it.
 */
export async function lookUpPrecedent(log: SessionLog, deps: CouncilDeps): Promise<void> {
  if (!deps.decisions || log.snapshot.context.precedent) return;
  let precedent: SessionPrecedent | undefined;
  try {
    precedent = await findSessionPrecedent(log.snapshot.context.requestText, deps.decisions);
  } catch (error) {
    deps.onNormalized?.('precedent', [
      `decision records not read: ${error instanceof Error ? error.message : String(error)}`,
    ]);
    return;
  }
  if (!precedent) return;
  log.setPrecedent(precedent);
  await deps.persist?.(log.stored);
  deps.output.markdown(`Earlier decisions the council will weigh: ${earlierDecisionsText(precedent)}.\n\n`);
}
