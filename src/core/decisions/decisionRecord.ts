/** The two record formats teams keep: MADR (adr.github.io/madr) and Michael Nygard's original (adr-tools). */
export type RecordFormat = 'madr' | 'nygard';

/** One architecture decision record as Council read it. */
export interface DecisionRecord {
  /** Workspace-relative path. */
  readonly path: string;
  readonly number: number;
  readonly title: string;
  /** Lower-case status word ("proposed", "accepted", "superseded", …). */
  readonly status: string;
  readonly date?: string;
  /** Context and decision text, for precedent matching. */
  readonly body: string;
}

/** A file in the records folder that is not a readable record, and why. */
export interface MalformedRecord {
  readonly path: string;
  readonly reason: string;
}

const FILE_NAME = /(?:^|\/)(\d{3,5})-([^/]+)\.md$/;

/** The record number a file name carries (`0007-use-postgres.md` → 7), or undefined. */
export function recordNumber(path: string): number | undefined {
  const match = FILE_NAME.exec(path);
  return match ? Number(match[1]) : undefined;
}

function frontMatter(text: string): { readonly fields: Map<string, string>; readonly rest: string } {
  const fields = new Map<string, string>();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields, rest: text };
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const field = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (field) fields.set((field[1] ?? '').toLowerCase(), (field[2] ?? '').replace(/^["']|["']$/g, '').trim());
  }
  return { fields, rest: text.slice(match[0].length) };
}

/** The text under `## heading` (case-insensitive), up to the next heading of level 2 or above. */
function section(text: string, heading: RegExp): string | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex(line => /^##\s/.test(line) && heading.test(line.replace(/^##\s+/, '')));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^#{1,2}\s/.test(line));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

/**
 * Reads one record in either format. Malformed (with the reason) when the name carries no number, or there is no
 * `# title`, or no status (front matter `status:` or a `## Status` section).
 */
export function parseRecord(path: string, text: string): DecisionRecord | MalformedRecord {
  const number = recordNumber(path);
  if (number === undefined) return { path, reason: 'the file name does not start with a number (NNNN-title.md)' };
  const { fields, rest } = frontMatter(text);
  const titleLine = /^#\s+(.+)$/m.exec(rest);
  if (!titleLine) return { path, reason: 'there is no "# title" line' };
  const title = (titleLine[1] ?? '').replace(/^\d+\.\s*/, '').trim();
  const statusText = fields.get('status') ?? section(rest, /^status\b/i)?.split(/\r?\n/)[0];
  if (!statusText) return { path, reason: 'there is no status (front matter "status:" or a "## Status" section)' };
  const status =
    statusText
      .trim()
      .split(/\s+/)[0]
      ?.toLowerCase()
      .replace(/[^a-z-]/g, '') ?? '';
  if (status === '') return { path, reason: 'the status is empty' };
  const date = fields.get('date') ?? /^Date:\s*(\S+)/m.exec(rest)?.[1];
  const body = [section(rest, /context/i), section(rest, /^decision\b/i) ?? section(rest, /decision outcome/i)]
    .filter((part): part is string => part !== undefined)
    .join('\n\n');
  return { path, number, title, status, ...(date ? { date } : {}), body };
}

/** True when `parsed` is a record, not a malformed file. */
export function isRecord(parsed: DecisionRecord | MalformedRecord): parsed is DecisionRecord {
  return 'number' in parsed;
}
