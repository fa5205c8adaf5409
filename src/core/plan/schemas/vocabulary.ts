import { z } from 'zod';
import { nonBlank, workspacePath } from './common';

/**
 * Most values a per-request enum lists. Workspace paths are spelled out once per schema (later fields point at the
 * first, `spellListsOnce`), and that listing is billed with every request and repair: past this many (about 6 KB,
 * some 1,500 tokens) the fields say the rule in their description instead and normalization drops what does not exist.
 */
export const ENUM_CAP = 150;

/** A line number no source file reaches; keeps line fields finite without knowing each file's length. */
const MAX_LINE = 1_000_000;

/**
 * The files a reply may cite: every visible file while they fit in one enum; past that, the visible files the
 * agent was shown (in its prompt, by its tools, in the reports it consolidates), the first `ENUM_CAP` of `shown`
 * (strongest first), so that a reply following the schema still cites only files that exist. With nothing shown,
 * every visible file, described rather than listed.
 */
export function citableFiles(visible: ReadonlySet<string>, shown: Iterable<string>): ReadonlySet<string> {
  if (visible.size <= ENUM_CAP) return visible;
  const citable = [...new Set(shown)].filter(path => visible.has(path)).slice(0, ENUM_CAP);
  return citable.length === 0 ? visible : new Set(citable);
}

/** A 1-based line number with a sane maximum. */
export function lineNumber(description: string): z.ZodNumber {
  return z.number().int().min(1).max(MAX_LINE).describe(description);
}

/**
 * A string that must be one of `values`: an enum when there are 1..ENUM_CAP of them, else a plain string whose
 * description states `rule` (normalization then drops what is not among them). With no vocabulary (the published
 * record), any non-blank string.
 */
export function oneOf(
  values: readonly string[] | undefined,
  description: string | undefined,
  rule: string,
): z.ZodType<string, string> {
  if (values === undefined) return nonBlank(description);
  const distinct = [...new Set(values)];
  if (distinct.length === 0 || distinct.length > ENUM_CAP)
    return nonBlank(description === undefined ? rule : `${description} ${rule}`);
  // The listed values say what the field takes; a description is for what the name and list do not say.
  const listed = z.enum(distinct as [string, ...string[]]);
  return (description === undefined ? listed : listed.describe(description)) as z.ZodType<string, string>;
}

/** Segments of letters, digits and `_@+-.`, not starting with two dots: what a path written by hand needs. */
const NEW_PATH_SEGMENT = '\\.?[A-Za-z0-9_@+-][A-Za-z0-9_@+.-]*';

/** A workspace-relative path that may not exist yet (a file to create or to name in a plan). */
const NEW_PATH_PATTERN = `^${NEW_PATH_SEGMENT}(?:/${NEW_PATH_SEGMENT})*$`;

/** A workspace-relative path the JSON Schema describes by pattern (no "..", ".", "\\", drive or leading "/"). */
export function newWorkspacePath(description: string): z.ZodString {
  return z
    .string()
    .regex(new RegExp(NEW_PATH_PATTERN), { message: 'must be a workspace-relative path such as src/app/main.ts' })
    .describe(`${description} Workspace-relative, e.g. src/app/main.ts.`);
}

/** A file of the workspace: listed in the enum, or (in a large workspace) described; any workspace path without a vocabulary. */
export function existingFile(files: ReadonlySet<string> | undefined, description?: string): z.ZodType<string, string> {
  if (files === undefined) return workspacePath(description);
  return oneOf(
    [...files].sort(),
    description,
    'Must be an existing workspace file, workspace-relative and exactly as the tools list it.',
  );
}

/** Every folder that holds one of `files` ("src", "src/app", …), sorted. */
export function foldersOf(files: Iterable<string>): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const segments = file.split('/');
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
  }
  return [...folders].sort();
}

/** An array whose items the JSON Schema says are distinct. */
export function distinctItems<T extends z.ZodType>(item: T, description?: string): z.ZodArray<T> {
  const list = z.array(item).meta({ uniqueItems: true });
  return description === undefined ? list : list.describe(description);
}
