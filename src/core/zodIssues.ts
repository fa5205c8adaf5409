import { z } from 'zod';
import { closestMatch } from './closestMatch';

/*
 * The one wording of a validation issue, for every caller: a workflow or persona file's author (with the data they
 * wrote, so a sentence can say what was found and suggest what was meant) and a model's repair (`describeIssues`).
 */

/** How many issues a repair message or error lists; more only distracts the model. */
const MAX_LISTED_ISSUES = 8;

/** A path into the checked data. */
export type Path = readonly (string | number)[];

/** One issue as a person (or a model) reads it: where, and what to do. */
export interface Explained {
  readonly path: Path;
  readonly message: string;
}

/** A value as quoted in a message (long values cut). */
export function code(value: unknown): string {
  if (value === null) return 'an empty value';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `\`${text.length > 60 ? `${text.slice(0, 57)}…` : text}\``;
}

export const list = (values: readonly string[]): string => values.map(value => `\`${value}\``).join(', ');

/** `questions[0].impact` for `['questions', 0, 'impact']`; `root` for an empty path. */
export function issuePath(path: readonly PropertyKey[], root = '(root)'): string {
  if (path.length === 0) return root;
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/**
 * The schema of the field at `path` below `schema` (whose value is `value`), through optional/default wrappers; at a
 * union, the option that fits the value written there (a list, or the mapping with the fewest unknown keys).
 */
function schemaAt(schema: z.ZodType | undefined, path: Path, value: unknown): z.ZodType | undefined {
  let current = pick(unwrap(schema), value);
  let here = value;
  for (const segment of path) {
    here = valueAt(here, [segment]);
    if (current instanceof z.ZodObject && typeof segment === 'string')
      current = pick(unwrap(current.shape[segment] as z.ZodType | undefined), here);
    else if (current instanceof z.ZodArray && typeof segment === 'number')
      current = pick(unwrap(current.element as z.ZodType), here);
    else return undefined;
  }
  return current;
}

/** The union at `path` itself (not one of its options), if that is what is there. */
function unionAt(schema: z.ZodType | undefined, path: Path, value: unknown): z.ZodUnion | undefined {
  const last = path[path.length - 1];
  const parent = path.length === 0 ? undefined : schemaAt(schema, path.slice(0, -1), value);
  const field =
    path.length === 0
      ? unwrap(schema)
      : parent instanceof z.ZodObject && typeof last === 'string'
        ? unwrap(parent.shape[last] as z.ZodType | undefined)
        : parent instanceof z.ZodArray && typeof last === 'number'
          ? unwrap(parent.element as z.ZodType)
          : undefined;
  return field instanceof z.ZodUnion ? field : undefined;
}

function pick(schema: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  if (!(schema instanceof z.ZodUnion)) return schema;
  const options = (schema.options as z.ZodType[]).map(unwrap);
  if (Array.isArray(value)) return options.find(option => option instanceof z.ZodArray);
  if (value === null || typeof value !== 'object')
    return options.find(option => !(option instanceof z.ZodObject) && !(option instanceof z.ZodArray));
  const keys = Object.keys(value);
  const unknown = (option: z.ZodObject) => keys.filter(key => !(key in option.shape)).length;
  const objects = options.filter((option): option is z.ZodObject => option instanceof z.ZodObject);
  return objects.reduce<z.ZodObject | undefined>(
    (best, option) => (best === undefined || unknown(option) < unknown(best) ? option : best),
    undefined,
  );
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
  return current;
}

function valueAt(data: unknown, path: Path): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** The first sentence of a field's description, to say what a missing field is for. */
function purposeOf(schema: z.ZodType | undefined): string {
  const description = schema?.description ?? unwrap(schema)?.description;
  if (!description) return '';
  const sentence = /^.*?[.:](?=\s|$)/.exec(description)?.[0] ?? description;
  return ` (${sentence.replace(/[.:]$/, '')})`;
}

/** What a value is, as a sentence says it (`a list`, `the text \`x\``). */
export function kindOf(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${code(value)}`;
  return `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : typeof value} ${code(value)}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: '`true` or `false`',
  array: 'a list',
  object: 'a mapping (`key: value` lines)',
  record: 'a mapping (`key: value` lines)',
};

/** zod's own wording starts like this; a message we wrote ourselves does not. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized)/;

/**
 * Adds one zod issue (found at `base` + issue.path, checked by `schema` rooted at `base`). A union that fails is
 * explained through the branch the value was evidently meant for (the one that did not fail at the union itself,
 * else the one with the fewest problems), so `checkpoint: { prompt: … }` is told it lacks `options`, not that it
 * matches neither shape.
 */
function addIssue(
  issues: Explained[],
  issue: z.core.$ZodIssue,
  base: Path,
  schema: z.ZodType | undefined,
  data: unknown,
): void {
  const add = (path: Path, message: string) => issues.push({ path, message });
  const path: Path = [...base, ...(issue.path as (string | number)[])];
  const local = issue.path as (string | number)[];
  const value = valueAt(data, path);
  const baseValue = valueAt(data, base);
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && value === undefined && path.length > 0) {
    const key = path[path.length - 1];
    add(
      path,
      ZOD_DEFAULT.test(issue.message)
        ? `Missing ${code(String(key))}${purposeOf(schemaAt(schema, local, baseValue))}: add it.`
        : issue.message,
    );
    return;
  }
  switch (issue.code) {
    case 'invalid_union': {
      const union = unionAt(schema, local, baseValue);
      const branches = issue.errors
        .map((errors, index) => ({ errors, index }))
        .filter(({ errors }) => !errors.some(error => error.path.length === 0 && error.code === 'invalid_type'));
      if (branches.length > 0) {
        // Each unknown key counts as a problem: `{ prompt, optons }` is a custom checkpoint with a typo, not an approval.
        const weight = (errors: readonly z.core.$ZodIssue[]) =>
          errors.reduce((sum, error) => sum + (error.code === 'unrecognized_keys' ? error.keys.length : 1), 0);
        const best = branches.reduce((a, b) => (weight(b.errors) < weight(a.errors) ? b : a));
        const branch = union?.options[best.index] as z.ZodType | undefined;
        for (const inner of best.errors) addIssue(issues, inner, path, branch, data);
        return;
      }
      add(path, `${issue.message} Found ${kindOf(value)}.`);
      return;
    }
    case 'unrecognized_keys': {
      const parent = schemaAt(schema, local, baseValue);
      const allowed = parent instanceof z.ZodObject ? Object.keys(parent.shape) : [];
      for (const key of issue.keys) {
        const near = closestMatch(key, allowed);
        add(
          [...path, key],
          `Unknown field ${code(key)}${near ? ` (did you mean ${code(near)}?)` : ''}: remove it or correct its name.` +
            (allowed.length > 0 ? ` Allowed here: ${list(allowed)}.` : ''),
        );
      }
      return;
    }
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      add(
        path,
        `Expected ${expected}, found ${kindOf(value)}.${ZOD_DEFAULT.test(issue.message) ? '' : ` ${issue.message}`}`,
      );
      return;
    }
    case 'invalid_value': {
      if (!ZOD_DEFAULT.test(issue.message)) {
        add(path, `${issue.message.replace(/\.$/, '')} (found ${code(value)}).`);
        return;
      }
      const values = issue.values.map(String);
      const near = typeof value === 'string' ? closestMatch(value, values) : undefined;
      add(path, `Use one of ${list(values)} (found ${code(value)}${near ? `; did you mean ${code(near)}?` : ''}).`);
      return;
    }
    case 'too_small':
    case 'too_big': {
      if (!ZOD_DEFAULT.test(issue.message)) {
        add(path, issue.message);
        return;
      }
      const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const one = Number(limit) === 1;
      const what =
        issue.origin === 'array'
          ? one
            ? ' item'
            : ' items'
          : issue.origin === 'string'
            ? one
              ? ' character'
              : ' characters'
            : '';
      const bound =
        issue.code === 'too_small'
          ? issue.inclusive === false
            ? 'more than'
            : 'at least'
          : issue.inclusive === false
            ? 'less than'
            : 'at most';
      const found = issue.origin === 'array' && Array.isArray(value) ? `${value.length}` : code(value);
      add(path, `Use ${bound} ${String(limit)}${what} (found ${found}).`);
      return;
    }
    case 'invalid_format':
      add(path, `${issue.message.replace(/\.$/, '')} (found ${code(value)}).`);
      return;
    default:
      add(path, ZOD_DEFAULT.test(issue.message) ? `${issue.message} (found ${code(value)}).` : issue.message);
  }
}

/**
 * The sentences for one zod issue about `data` (checked by `schema`, both rooted at `base`): what is missing, unknown
 * (with a suggestion and the allowed fields), of the wrong kind or out of range, and what was found there.
 */
export function explainIssue(
  issue: z.core.$ZodIssue,
  schema: z.ZodType | undefined,
  data: unknown,
  base: Path = [],
): Explained[] {
  const explained: Explained[] = [];
  addIssue(explained, issue, base, schema, data);
  return explained;
}

/**
 * Concise "path: sentence" lines for zod issues, worded as {@link explainIssue} words them (with `data` and `schema`
 * when the caller has them, as every caller in Council does; a workflow file's issues arrive already worded).
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  root = '(root)',
  checked?: { readonly schema: z.ZodType; readonly data: unknown },
): string[] {
  const lines = issues
    .slice(0, MAX_LISTED_ISSUES)
    .flatMap(issue =>
      checked
        ? explainIssue(issue, checked.schema, checked.data).map(
            ({ path, message }) => `${issuePath(path, root)}: ${message}`,
          )
        : [`${issuePath(issue.path, root)}: ${issue.message}`],
    );
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`(${issues.length - MAX_LISTED_ISSUES} more issues)`);
  return lines;
}
