import { untrusted } from './wording/markdown';
import type { RecordCatalog } from '../decisions/recordCatalog';
import { findPrecedent } from '../decisions/precedent';

/** A record's line: its number, title (linked to the file), status and date. Titles come from files: untrusted. */
function recordLine(record: RecordCatalog['records'][number]): string {
  const title = untrusted(record.title).replace(/[[\]\n]/g, ' ');
  return `- **${record.number}.** [${title}](${encodeURI(record.path)}) — ${record.status}${record.date ? `, ${record.date}` : ''}`;
}

/**
 * `/decisions [query]` as Markdown: every record of `folder`, or (with a query) those that bear on it, best first, by
 * the same search the council's precedent uses; files that are not readable records are named with why.
 */
export function decisionsMarkdown(folder: string, catalog: RecordCatalog, query: string): string {
  const skipped = catalog.malformed.map(bad => `- \`${bad.path}\`: ${untrusted(bad.reason)}`);
  const tail = skipped.length > 0 ? `\n\nSkipped (not readable as decision records):\n${skipped.join('\n')}` : '';
  if (catalog.records.length === 0)
    return `No decision records in \`${folder}/\` yet. After a council answers, **Record this decision** (or \`/record\`) writes one there.${tail}`;
  if (!query.trim())
    return `Decision records in \`${folder}/\` (${catalog.records.length}):\n\n${catalog.records.map(recordLine).join('\n')}${tail}`;
  const found = findPrecedent(query, catalog.records, 5);
  return found.length === 0
    ? `None of the ${catalog.records.length} records in \`${folder}/\` bears on “${untrusted(query.trim())}”. \`/decisions\` without a question lists them all.${tail}`
    : `Records in \`${folder}/\` that bear on “${untrusted(query.trim())}”, best match first:\n\n${found.map(p => recordLine(p.record)).join('\n')}${tail}`;
}
