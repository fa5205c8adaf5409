import { LineCounter, parseDocument } from 'yaml';
import { PersonaFrontMatterSchema, type PersonaDefinition } from './contract';
import { explainIssue, issuePath } from '../zodIssues';

/** Field name used when the problem is the front matter as a whole (missing, unclosed, not YAML). */
const FRONT_MATTER_FIELD = 'frontMatter';
/** Field name of the markdown body. */
const INSTRUCTIONS_FIELD = 'instructions';

/** Why a persona file was rejected; `message` is the full sentence shown to the user, path and field included. */
export interface PersonaFileError {
  readonly path: string;
  /** The front-matter field at fault (`cognitiveMode`, `relevantTo[2]`), or `frontMatter` / `instructions`. */
  readonly field: string;
  readonly message: string;
}

/** Outcome of parsing one persona file. */
export type PersonaParseResult =
  { readonly ok: true; readonly persona: PersonaDefinition } | { readonly ok: false; readonly error: PersonaFileError };

/** The largest persona file read: a persona is a page of guidance, and all of it goes into every prompt. */
export const MAX_PERSONA_CHARS = 32_000;
/** Aliases a front matter may expand: enough for any real use, far too few for an alias bomb. */
const MAX_ALIASES = 50;
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

function fail(path: string, field: string, detail: string): PersonaParseResult {
  const where = field === FRONT_MATTER_FIELD ? 'front matter' : `field "${field}"`;
  return { ok: false, error: { path, field, message: `${path}: ${where}: ${detail}` } };
}

/** Splits `---\n<yaml>\n---\n<body>`; `undefined` parts say which delimiter is missing. */
function split(text: string): { readonly yaml?: string; readonly body?: string } {
  const opening = OPENING.exec(text);
  if (!opening) return {};
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { yaml: rest };
  return { yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}

/**
 * Parses a persona file: YAML front matter (see PersonaFrontMatterSchema) between `---` lines,
 * then a non-empty markdown body that becomes `instructions`. Reports the first problem with the
 * file path and field, e.g. `.council/personas/dba.md: field "cognitiveMode": expected "divergent"
 * or "convergent", got "sideways"`.
 */
export function parsePersonaFile(path: string, text: string): PersonaParseResult {
  if (text.length > MAX_PERSONA_CHARS)
    return fail(
      path,
      INSTRUCTIONS_FIELD,
      `the file has ${text.length.toLocaleString('en-US')} characters; a persona may have at most ${MAX_PERSONA_CHARS.toLocaleString('en-US')} (its guidance goes into every prompt). Shorten it.`,
    );
  const { yaml, body } = split(text);
  if (yaml === undefined) {
    return fail(
      path,
      FRONT_MATTER_FIELD,
      'missing; the file must start with a "---" line, then the YAML fields, then a closing "---" line',
    );
  }
  if (body === undefined) return fail(path, FRONT_MATTER_FIELD, 'not closed; add a "---" line after the YAML fields');

  const lineCounter = new LineCounter();
  const document = parseDocument(yaml, { lineCounter, prettyErrors: false });
  const yamlError = document.errors[0];
  if (yamlError) {
    // +1 because the opening "---" is line 1 of the file.
    const line = lineCounter.linePos(yamlError.pos[0]).line + 1;
    return fail(path, FRONT_MATTER_FIELD, `invalid YAML at line ${line}: ${yamlError.message}`);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIASES });
    JSON.stringify(data);
  } catch {
    // An alias bomb (too many expansions) or a value that contains itself through an alias.
    return fail(
      path,
      FRONT_MATTER_FIELD,
      'its YAML aliases (`&name` / `*name`) expand too far or refer to themselves; write the values out instead of aliasing them',
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(path, FRONT_MATTER_FIELD, 'must be YAML fields ("key: value" lines), e.g. "id: security-expert"');
  }

  const parsed = PersonaFrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const problem = first ? explainIssue(first, PersonaFrontMatterSchema, data)[0] : undefined;
    return problem
      ? fail(path, issuePath(problem.path, FRONT_MATTER_FIELD), problem.message)
      : fail(path, FRONT_MATTER_FIELD, parsed.error.message);
  }
  const instructions = body.trim();
  if (instructions === '') {
    return fail(
      path,
      INSTRUCTIONS_FIELD,
      "is empty; write the persona's instructions as markdown below the front matter",
    );
  }
  return { ok: true, persona: { ...parsed.data, instructions } };
}
