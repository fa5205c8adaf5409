import { isObject, objectsAt, updateArray, type JsonObject } from '../../llm/replyNormalizing';

/** Records what a normalizer changed (see ReplyNormalizer). */
export type Note = (change: string) => void;

/** The string at `item[field]`, or undefined. */
export function textAt(item: unknown, field: string): string | undefined {
  const value = isObject(item) ? item[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Keeps the items of `owner[key]` that `keep` accepts; `why(item)` names each dropped one in a note. */
export function dropItems(
  owner: unknown,
  key: string,
  keep: (item: unknown) => boolean,
  why: (item: unknown) => string,
  note: Note,
): void {
  updateArray(owner, key, list =>
    list.filter(item => {
      if (keep(item)) return true;
      note(why(item));
      return false;
    }),
  );
}

/** Drops the strings of `owner[key]` that are not in `known`, noting `dropped unknown <label> "x"`; other items stay for validation. */
export function dropUnknownStrings(
  owner: unknown,
  key: string,
  known: ReadonlySet<string>,
  label: string,
  note: Note,
): void {
  dropItems(
    owner,
    key,
    item => typeof item !== 'string' || known.has(item),
    item => `dropped unknown ${label} "${String(item)}"`,
    note,
  );
}

/** Drops the keys of the object at `owner[key]` that `keep` refuses, noting `dropped <label> "k" (<why>)`. */
export function dropKeys(
  owner: unknown,
  key: string,
  keep: (name: string) => boolean,
  label: string,
  why: string,
  note: Note,
): void {
  if (!isObject(owner)) return;
  const record = owner[key];
  if (!isObject(record)) return;
  for (const name of Object.keys(record)) {
    if (keep(name)) continue;
    delete record[name];
    note(`dropped ${label} "${name}" (${why})`);
  }
}

/** Items whose `field` is an id, e.g. the tags of a report keyed by `tagId`. */
interface IdGroup {
  readonly items: readonly JsonObject[];
  readonly field: string;
}

/**
 * Gives every later item whose id repeats an earlier one (across all `groups`, in order) a fresh id
 * `<id>-2`, `<id>-3`, …, noting it. References to the id keep meaning the first item.
 */
export function renameDuplicateIds(groups: readonly IdGroup[], label: string, note: Note): void {
  const taken = new Set(idsOf(groups));
  const seen = new Set<string>();
  for (const { items, field } of groups) {
    for (const item of items) {
      const id = item[field];
      if (typeof id !== 'string') continue;
      if (!seen.has(id)) {
        seen.add(id);
        continue;
      }
      let n = 2;
      while (taken.has(`${id}-${n}`)) n++;
      const fresh = `${id}-${n}`;
      taken.add(fresh);
      seen.add(fresh);
      item[field] = fresh;
      note(`renamed the repeated ${label} "${id}" to "${fresh}"`);
    }
  }
}

/** The ids of `groups`, in order. */
export function idsOf(groups: readonly IdGroup[]): string[] {
  return groups.flatMap(({ items, field }) =>
    items.flatMap(item => (typeof item[field] === 'string' ? [item[field]] : [])),
  );
}

/** The strings at `field` of the objects at `owner[key]` (e.g. the ids of a list), in order. */
export function textsAt(owner: unknown, key: string, field: string): string[] {
  return idsOf([{ items: objectsAt(owner, key), field }]);
}

/** The object at `owner[key]`, or undefined. */
export function objectAt(owner: unknown, key: string): JsonObject | undefined {
  const value = isObject(owner) ? owner[key] : undefined;
  return isObject(value) ? value : undefined;
}
