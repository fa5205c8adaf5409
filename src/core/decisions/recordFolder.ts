import type { WorkspaceReader } from '../workspace/workspaceReader';
import type { RecordFormat } from './decisionRecord';

/** Where a team keeps its records, in which format, and how Council knew. */
export interface RecordFolder {
  readonly folder: string;
  readonly format: RecordFormat;
  readonly source: 'setting' | '.adr-dir' | 'existing folder' | 'default';
}

/** The folders teams use, in the order Council looks: adr-tools, log4brains, MADR. */
const KNOWN_FOLDERS: readonly string[] = ['doc/adr', 'docs/adr', 'docs/decisions', 'doc/decisions'];
const DEFAULT_FOLDER = 'docs/decisions';

async function readAll(reader: WorkspaceReader, path: string): Promise<string | undefined> {
  return (await reader.readRange(path, 1, 100_000))?.text;
}

function trimFolder(folder: string): string {
  return folder.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Nygard when a record or template in the folder has a `## Status` section and no front matter; MADR otherwise. */
async function formatOf(reader: WorkspaceReader, folder: string, adrTools: boolean): Promise<RecordFormat> {
  const files = await reader.listFiles(`${folder}/*.md`, 50);
  const sample = files.find(f => /template/i.test(f.path)) ?? files.find(f => /\/\d{3,5}-/.test(f.path));
  const text = sample ? await readAll(reader, sample.path) : undefined;
  if (text === undefined) return adrTools ? 'nygard' : 'madr';
  if (
    /^---\r?\n/.test(text) ||
    /^##\s+(Context and Problem Statement|Considered Options|Decision Outcome)/im.test(text)
  )
    return 'madr';
  return /^##\s+Status\b/im.test(text) ? 'nygard' : 'madr';
}

/**
 * Finds the team's records folder: the setting when given, else adr-tools' `.adr-dir`, else the first known folder
 * that has Markdown files, else MADR in `docs/decisions/`. The format follows what the folder already holds.
 */
export async function findRecordFolder(reader: WorkspaceReader, setting?: string): Promise<RecordFolder> {
  if (setting !== undefined && trimFolder(setting) !== '') {
    const folder = trimFolder(setting);
    return { folder, format: await formatOf(reader, folder, false), source: 'setting' };
  }
  const adrDir = await readAll(reader, '.adr-dir');
  if (adrDir !== undefined && trimFolder(adrDir) !== '') {
    const folder = trimFolder(adrDir);
    return { folder, format: await formatOf(reader, folder, true), source: '.adr-dir' };
  }
  for (const folder of KNOWN_FOLDERS) {
    if ((await reader.listFiles(`${folder}/*.md`, 1)).length === 0) continue;
    return { folder, format: await formatOf(reader, folder, folder === 'doc/adr'), source: 'existing folder' };
  }
  return { folder: DEFAULT_FOLDER, format: 'madr', source: 'default' };
}
