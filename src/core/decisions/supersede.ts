import type { RecordFormat } from './decisionRecord';

/**
 * The earlier record's text marked superseded by `newName`: front matter `status:` (MADR) or the `## Status`
 * section (Nygard) now reads "superseded by …". Undefined when the text has no status to change.
 */
export function markSuperseded(
  text: string,
  format: RecordFormat,
  newNumber: number,
  newTitle: string,
  newName: string,
): string | undefined {
  const by = `[${newNumber}. ${newTitle}](${newName})`;
  if (format === 'madr' || /^---\r?\n[\s\S]*?^status:/m.test(text)) {
    const replaced = text.replace(/^(---\r?\n[\s\S]*?^)status:[^\n]*$/m, `$1status: superseded by ${newName}`);
    if (replaced !== text) return replaced;
  }
  const status = /^(##\s+Status\s*\r?\n)([\s\S]*?)(?=^#{1,2}\s|(?![\s\S]))/m.exec(text);
  if (!status) return undefined;
  const at = status.index + (status[1] ?? '').length;
  return `${text.slice(0, at)}\nSuperseded by ${by}\n\n${text.slice(at + (status[2] ?? '').length)}`;
}
