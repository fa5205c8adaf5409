import { recordNumber } from './decisionRecord';

/** `Use PostgreSQL for events!` → `use-postgresql-for-events` (at most 60 characters). */
function slug(title: string): string {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 60).replace(/-+$/, '') || 'decision';
}

/**
 * The next free file name: one past the highest number any file in the folder carries, and never a name that
 * exists (the caller checks again right before writing, and refuses rather than overwrite).
 */
export function nextRecordName(existingNames: readonly string[], title: string): { number: number; name: string } {
  const highest = Math.max(0, ...existingNames.map(name => recordNumber(name) ?? 0));
  let number = highest + 1;
  const taken = new Set(existingNames.map(n => n.toLowerCase()));
  let name = `${String(number).padStart(4, '0')}-${slug(title)}.md`;
  while (taken.has(name.toLowerCase()) || existingNames.some(n => recordNumber(n) === number)) {
    number += 1;
    name = `${String(number).padStart(4, '0')}-${slug(title)}.md`;
  }
  return { number, name };
}
