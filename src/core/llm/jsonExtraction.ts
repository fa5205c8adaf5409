/** The outcome of looking for a JSON value in a model's text reply. */
export type JsonExtraction =
  | { readonly ok: true; readonly value: unknown }
  /** `truncated`: brackets or a string were still open at the end, so the reply was cut off. */
  | { readonly ok: false; readonly problem: string; readonly truncated?: boolean };

// Fences must start and end on their own lines: JSON strings cannot hold raw newlines, so a ``` inside
// a markdown string value (e.g. a code sample in an argument) is never mistaken for the closing fence.
const FENCE = /(?:^|\n)[ \t]*```[ \t]*(?:[\w-]+)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/gi;
const OPEN_FENCE = /(?:^|\n)[ \t]*```[ \t]*(?:jsonc?)?[ \t]*\r?\n([\s\S]*)$/i;

function tryParse(text: string): JsonExtraction {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** True when brackets or a string are still open at the end: the reply was cut off. */
function looksTruncated(text: string): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') depth -= 1;
  }
  return inString || depth > 0;
}

/** The span from the first `{` or `[` to the last matching closer, for JSON wrapped in prose. */
function outermostJson(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const closer = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(closer);
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}

function failure(candidate: string, parsed: JsonExtraction): JsonExtraction {
  if (looksTruncated(candidate)) {
    return {
      ok: false,
      problem: 'The JSON is incomplete: it looks cut off before the object was closed.',
      truncated: true,
    };
  }
  return parsed.ok ? parsed : { ok: false, problem: `The JSON could not be parsed: ${parsed.problem}` };
}

/**
 * Finds the JSON value in a model's reply: a ```json fence (prose around it is fine),
 * else bare JSON, else the outermost `{...}` in the text. Reports why nothing usable was found.
 */
export function extractJson(reply: string): JsonExtraction {
  const text = reply.trim();
  if (text === '') return { ok: false, problem: 'The reply was empty.' };

  const fenced = [...text.matchAll(FENCE)].map(match => (match[1] ?? '').trim());
  for (const block of fenced) {
    const parsed = tryParse(block);
    if (parsed.ok) return parsed;
  }
  if (fenced.length > 0) {
    const candidate = fenced.find(block => /^[{[]/.test(block)) ?? fenced[0] ?? '';
    return failure(candidate, tryParse(candidate));
  }

  const unclosed = OPEN_FENCE.exec(text);
  if (unclosed) {
    const body = (unclosed[1] ?? '').trim();
    const parsed = tryParse(body);
    return parsed.ok ? parsed : failure(body, parsed);
  }

  const whole = tryParse(text);
  if (whole.ok) return whole;
  const embedded = outermostJson(text);
  if (embedded === undefined) {
    return { ok: false, problem: 'The reply contained no JSON object; expected one ```json fenced block.' };
  }
  const parsed = tryParse(embedded);
  return parsed.ok ? parsed : failure(embedded, parsed);
}
