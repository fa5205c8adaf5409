/**
 * The portable subset of JSON Schema: what every model family Copilot routes to accepts as a tool's `inputSchema`
 * (see /work/shared/notes/model-contract.md, "Portable schemas"). The strictest family sets the rules:
 * - Gemini takes an OpenAPI 3.0 subset only and fails the whole request on anything else ("Invalid JSON payload
 *   received. Unknown name …"): zed-industries/zed#44875, microsoft/vscode#288453, github/copilot-cli#4623.
 * - Type arrays, non-string enums, an object without `properties`, an array without `items` fail Gemini too
 *   (same sources); `oneOf` is read as `anyOf` at best (docs.x.ai, structured outputs).
 * - Some constrained decoders anchor `pattern` (llama.cpp #26930): an unanchored `\S` then means "one character",
 *   so every pattern must be anchored `^…$` to mean the same everywhere.
 */

/** Keywords Gemini's OpenAPI subset accepts (plus `properties`/`items` children, checked recursively). */
export const PORTABLE_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'title',
]);

const TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Every non-portable keyword or construct in `schema`, one line each with its path ("$.a.items: const"). */
export function nonPortable(schema: unknown, at = '$'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${at}: not a schema object`];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (!PORTABLE_KEYWORDS.has(keyword)) found.push(`${at}: ${keyword}`);
    else if (keyword === 'type' && (typeof value !== 'string' || !TYPES.has(value)))
      found.push(`${at}: type ${JSON.stringify(value)}`);
    else if (keyword === 'enum' && (!Array.isArray(value) || value.some(v => typeof v !== 'string')))
      found.push(`${at}: non-string enum`);
    else if (keyword === 'pattern' && (typeof value !== 'string' || !value.startsWith('^') || !value.endsWith('$')))
      found.push(`${at}: unanchored pattern ${JSON.stringify(value)}`);
  }
  const anyOf = node['anyOf'];
  if (node['type'] === undefined && !Array.isArray(anyOf)) found.push(`${at}: no type`);
  if (Array.isArray(anyOf)) {
    if (at === '$') found.push(`${at}: top-level anyOf`);
    anyOf.forEach((option, index) => found.push(...nonPortable(option, `${at}.anyOf[${index}]`)));
  }
  // Unportable containers are reported above; what they hold is checked too, so nothing hides inside them.
  for (const keyword of ['oneOf', 'allOf']) {
    const options = node[keyword];
    if (Array.isArray(options))
      options.forEach((option, index) => found.push(...nonPortable(option, `${at}.${keyword}[${index}]`)));
  }
  for (const keyword of ['additionalProperties', 'propertyNames', 'not']) {
    const child = node[keyword];
    if (typeof child === 'object' && child !== null) found.push(...nonPortable(child, `${at}.${keyword}`));
  }
  if (node['type'] === 'object') {
    const properties = node['properties'];
    if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) {
      // An empty `properties` is accepted only for a tool that takes no input (the whole schema).
      if (at !== '$' || typeof properties !== 'object' || properties === null)
        found.push(`${at}: object without properties`);
    } else {
      for (const [name, property] of Object.entries(properties)) found.push(...nonPortable(property, `${at}.${name}`));
    }
  }
  if (node['type'] === 'array') {
    if (node['items'] === undefined) found.push(`${at}: array without items`);
    else found.push(...nonPortable(node['items'], `${at}[]`));
  }
  return found;
}
