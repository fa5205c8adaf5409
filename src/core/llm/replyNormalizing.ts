/**
 * Small, shape-tolerant helpers for ReplyNormalizers. A normalizer sees the reply as the model sent it,
 * before validation, so every helper accepts any value and leaves what it does not recognise alone.
 */

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects in `owner[key]` when it is an array (non-objects skipped); empty otherwise. */
export function objectsAt(owner: unknown, key: string): JsonObject[] {
  if (!isObject(owner)) return [];
  const list = owner[key];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** Replaces `owner[key]` by `fn(list)` when it is an array. */
export function updateArray(owner: unknown, key: string, fn: (list: unknown[]) => unknown[]): void {
  if (!isObject(owner)) return;
  const list = owner[key];
  if (Array.isArray(list)) owner[key] = fn(list);
}

/**
 * Keeps the first item for each key (`keyOf` returns undefined for items it cannot key, which are kept);
 * notes each dropped duplicate as `dropped duplicate <label> "<key>"`.
 */
function dropDuplicates(
  list: readonly unknown[],
  keyOf: (item: unknown) => string | undefined,
  label: string,
  note: (change: string) => void,
): unknown[] {
  const seen = new Set<string>();
  return list.filter(item => {
    const key = keyOf(item);
    if (key === undefined) return true;
    if (seen.has(key)) {
      note(`dropped duplicate ${label} "${key}"`);
      return false;
    }
    seen.add(key);
    return true;
  });
}

/** The string at `item[field]` (or the item itself when `field` is omitted and it is a string). */
function stringKey(field?: string): (item: unknown) => string | undefined {
  return item => {
    const value = field === undefined ? item : isObject(item) ? item[field] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
}

/** Drops duplicates from the array at `owner[key]`, keyed by `field` of each item (or the item itself). */
export function dedupeArray(
  owner: unknown,
  key: string,
  field: string | undefined,
  label: string,
  note: (change: string) => void,
): void {
  updateArray(owner, key, list => dropDuplicates(list, stringKey(field), label, note));
}

/** Swaps `start`/`end` number fields of `item` when they are reversed (intent: the range between them). */
export function orderRange(
  item: unknown,
  start: string,
  end: string,
  note: (change: string) => void,
  label: string,
): void {
  if (!isObject(item)) return;
  const from = item[start];
  const to = item[end];
  if (typeof from === 'number' && typeof to === 'number' && from > to) {
    item[start] = to;
    item[end] = from;
    note(`swapped the reversed range ${label} ${from}-${to}`);
  }
}

/** A deep copy of a JSON value, so normalizing never changes what the model's reply object holds. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A name as the model may mangle it: case and runs of spaces do not matter. */
function looseKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The canonical spelling among `names` of a value that matches one loosely (case, spacing), or undefined.
 * `aliases` maps other spellings (e.g. a persona's display name) to a canonical one.
 */
export function canonicalIn(
  names: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): (value: unknown) => string | undefined {
  const byKey = new Map<string, string>();
  for (const [alias, name] of Object.entries(aliases)) byKey.set(looseKey(alias), name);
  for (const name of names) byKey.set(looseKey(name), name);
  return value => (typeof value === 'string' ? byKey.get(looseKey(value)) : undefined);
}

/**
 * Rewrites the array at `owner[key]` so each item's key (the item itself, or `item[field]`) is canonical:
 * a loose match is respelled (noted `read <label> "x" as "y"`), an unknown one dropped (noted
 * `dropped unknown <label> "x"`). Items of another shape are left for validation to report.
 */
export function canonicalizeArray(
  owner: unknown,
  key: string,
  field: string | undefined,
  canonical: (value: unknown) => string | undefined,
  label: string,
  note: (change: string) => void,
): void {
  updateArray(owner, key, list =>
    list.flatMap(item => {
      const value = field === undefined ? item : isObject(item) ? item[field] : undefined;
      if (typeof value !== 'string') return [item];
      const name = canonical(value);
      if (name === undefined) {
        note(`dropped unknown ${label} "${value}"`);
        return [];
      }
      if (name === value) return [item];
      note(`read ${label} "${value}" as "${name}"`);
      return [field === undefined ? name : { ...(item as JsonObject), [field]: name }];
    }),
  );
}

/** Removes `item[field]` when present, noting `dropped <field> (<why>)`. */
export function dropField(item: unknown, field: string, why: string, note: (change: string) => void): void {
  if (!isObject(item) || !(field in item)) return;
  delete item[field];
  note(`dropped ${field} (${why})`);
}

/** Whether `value` is a string with something visible in it. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
