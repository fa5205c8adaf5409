/* No `vscode` import: the name rules of personas and workflows build on it and run in plain Node unit tests. */

/**
 * `text` as lower-case ASCII letters and digits, every other run of characters one hyphen, accents dropped:
 * "Café Ops (EU)!" -> "cafe-ops-eu-". Callers trim the hyphens at the ends their names may not have.
 */
export function hyphenatedAscii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}
