import { PORTABLE_KEYWORDS } from './portableSchema';
import { isObject, type JsonObject } from './replyNormalizing';

/*
 * Tools from other extensions (the user's `#tool`s) come with schemas Council does not control, and Copilot passes
 * them to the provider unchanged, where one unknown keyword fails the whole request (Gemini: "400 Bad Request").
 * So they are normalized as Copilot normalizes tools for its own requests: a small form of `normalizeToolSchema`
 * in microsoft/vscode-copilot-chat (src/extension/tools/common/toolSchemaNormalizer.ts), whose rules this follows
 * (an object with properties at the top, no top-level union, required names that exist, nullable instead of type
 * arrays, an array with items or the tool refused), plus the keywords outside the portable subset dropped. Only the
 * model's view changes: the tool still checks its own input.
 */

/** A foreign tool's schema as Council forwards it, or why the tool is left out. */
export type ForwardedSchema =
  | { readonly ok: true; readonly schema: JsonObject; readonly fixes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** Top-level keywords Claude and GPT-4o reject (Copilot's rule: "validated this fails both for claude and 4o"). */
const TOP_LEVEL_UNSUPPORTED = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else'];

class LeftOut extends Error {}

/** An object with no properties below the top: Gemini rejects it, and its keys cannot be said portably. */
function isFreeForm(node: JsonObject): boolean {
  return node['type'] === 'object' && (!isObject(node['properties']) || Object.keys(node['properties']).length === 0);
}

function normalizeNode(node: JsonObject, at: string, fix: (rule: string) => void): JsonObject {
  const out: JsonObject = { ...node };
  const type = out['type'];
  if (Array.isArray(type)) {
    const types = type.filter(t => t !== 'null');
    if (types.length < type.length) out['nullable'] = true;
    if (types.length === 1) out['type'] = types[0];
    else {
      delete out['type'];
      out['anyOf'] = types.map(t => ({ type: t }));
    }
    fix(
      `${at}: type array as ${types.length === 1 ? 'one type' : 'anyOf'}${types.length < type.length ? ', nullable' : ''}`,
    );
  }
  if (Array.isArray(out['oneOf'])) {
    out['anyOf'] = [...(Array.isArray(out['anyOf']) ? out['anyOf'] : []), ...out['oneOf']];
    delete out['oneOf'];
    fix(`${at}: oneOf as anyOf`);
  }
  if ('const' in out) {
    const value = out['const'];
    delete out['const'];
    if (typeof value === 'string') out['enum'] = [value];
    fix(`${at}: const as enum`);
  }
  if (Array.isArray(out['enum']) && out['enum'].some(v => typeof v !== 'string')) {
    delete out['enum'];
    fix(`${at}: non-string enum dropped`);
  }
  if (out['type'] === 'array' && out['items'] === undefined)
    throw new LeftOut(`its input schema has an array without items (at ${at})`);
  for (const keyword of Object.keys(out)) {
    if (PORTABLE_KEYWORDS.has(keyword)) continue;
    delete out[keyword];
    fix(`${at}: ${keyword} dropped`);
  }
  if (isObject(out['items'])) out['items'] = normalizeNode(out['items'], `${at}[]`, fix);
  if (Array.isArray(out['anyOf']))
    out['anyOf'] = out['anyOf'].map((option, i) =>
      isObject(option) ? normalizeNode(option, `${at}|${i}`, fix) : option,
    );
  const properties = out['properties'];
  if (isObject(properties)) {
    const kept: JsonObject = {};
    const required = Array.isArray(out['required']) ? out['required'] : [];
    for (const [name, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      const normalized = normalizeNode(child, `${at}.${name}`, fix);
      if (!isFreeForm(normalized)) kept[name] = normalized;
      else if (required.includes(name))
        throw new LeftOut(`its input needs a free-form object (at ${at}.${name}), which not every model accepts`);
      else fix(`${at}.${name}: optional free-form object left out (not every model accepts one)`);
    }
    out['properties'] = kept;
    if (Array.isArray(out['required'])) {
      const names = out['required'].filter(name => typeof name === 'string' && name in kept);
      if (names.length < out['required'].length) fix(`${at}: required names that are not properties dropped`);
      out['required'] = names;
    }
  } else if (out['type'] === 'object') {
    out['properties'] = {};
    if (at === '$') fix(`${at}: object given properties`);
  }
  return out;
}

/** `schema` (another extension's tool input schema) as every model family accepts it, or why the tool is left out. */
export function forwardableSchema(schema: unknown): ForwardedSchema {
  const fixes: string[] = [];
  const fix = (rule: string) => fixes.push(rule);
  let top: JsonObject = isObject(schema) ? { ...schema } : {};
  if (!isObject(schema) || top['type'] !== 'object') {
    top = { type: 'object', properties: {} };
    if (schema !== undefined) fix('$: schema must be an object');
  }
  for (const keyword of TOP_LEVEL_UNSUPPORTED) {
    if (keyword in top) {
      delete top[keyword];
      fix(`$: top-level ${keyword} dropped`);
    }
  }
  try {
    return { ok: true, schema: normalizeNode(top, '$', fix), fixes };
  } catch (error) {
    if (error instanceof LeftOut) return { ok: false, reason: error.message };
    throw error;
  }
}
