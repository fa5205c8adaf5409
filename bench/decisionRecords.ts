// Seconds to find and read 500 decision records and match precedent, and the prompt tokens precedent adds.
// Run: npx tsx bench/decisionRecords.ts
import { readCatalog } from '../src/core/decisions/recordCatalog';
import { findRecordFolder } from '../src/core/decisions/recordFolder';
import { findPrecedent, precedentPrompt } from '../src/core/decisions/precedent';
import { globToRegExp } from '../src/core/workspace/glob';
import { linesOf, type WorkspaceReader } from '../src/core/workspace/workspaceReader';

const topics = ['database', 'queue', 'cache', 'framework', 'deployment', 'logging', 'authentication', 'testing'];
const files: Record<string, string> = { '.adr-dir': 'doc/adr' };
for (let n = 1; n <= 500; n++) {
  const topic = topics[n % topics.length] ?? 'topic';
  files[`doc/adr/${String(n).padStart(4, '0')}-use-${topic}-${n}.md`] =
    `# ${n}. Use option ${n} for ${topic}\n\nDate: 2025-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n` +
    `The ${topic} choice for service ${n} needs a decision; load, cost and the team's skills matter.\n\n` +
    `## Decision\n\nWe will use option ${n} for the ${topic}.\n\n## Consequences\n\nSome.\n`;
}
const paths = Object.keys(files).sort();
const reader: WorkspaceReader = {
  listFiles: async (glob, limit) =>
    paths
      .filter(p => glob === undefined || globToRegExp(glob).test(p))
      .slice(0, limit)
      .map(path => ({ path, sizeBytes: 0 })),
  readRange: async (path, start, end) => {
    const text = files[path];
    return text === undefined ? undefined : linesOf(path, text, start, end);
  },
  searchText: async () => [],
};

async function main(): Promise<void> {
  const started = performance.now();
  const folder = await findRecordFolder(reader);
  const catalog = await readCatalog(reader, folder.folder);
  const found = await Promise.resolve(
    findPrecedent('Which authentication provider should service 42 use?', catalog.records),
  );
  const seconds = (performance.now() - started) / 1000;
  const prompt = precedentPrompt(found);
  console.log(
    JSON.stringify({
      records: catalog.records.length,
      folder: folder.folder,
      seconds: Number(seconds.toFixed(3)),
      precedent: found.map(p => p.record.number),
      extraModelRequests: 0,
      promptTokensAdded: Math.ceil(prompt.length / 4),
    }),
  );
}

void main();
