import { isObject, type JsonObject } from './replyNormalizing';

/*
 * The portable subset of JSON Schema: what every model family Copilot routes to accepts in a tool's `inputSchema`
 * (Copilot passes an extension's schemas through unchanged; Gemini fails the whole request on any keyword outside
 * its OpenAPI subset, Grok decodes strictly, some decoders anchor `pattern`). See the model contract's "Portable
 * schemas". zod keeps checking every rule dropped here: the rules move into the description, not out of the check.
 */

/** Keywords every family accepts (Gemini's OpenAPI 3.0 subset, the strictest). */
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

/**
 * The keyword (set with zod's `.meta({ notAsked: 'why' })`) of a field a model is not asked for: Council derives it
 * (the reply's normalizer fills it in before validation) or has no use for a model's value. The sent schema leaves
 * the field out; the zod schema still checks whatever the reply ends up holding, and published schemas keep the
 * field with its reason.
 */
export const NOT_ASKED = 'notAsked';

function isNotAsked(property: unknown): boolean {
  return isObject(property) && typeof property[NOT_ASKED] === 'string';
}

/** Field names of one entry of a map sent as a list. */
const KEY = 'key';
const VALUE = 'value';

/** The not-blank rule zod's converter writes for a string that must hold a visible character. */
const NOT_BLANK = '\\S';

/** `text` appended to a schema's description, as a sentence. */
function describe(node: JsonObject, text: string): void {
  const said = typeof node['description'] === 'string' ? node['description'].trim() : '';
  node['description'] = said === '' ? text : `${said}${/[.!?:]$/.test(said) ? '' : '.'} ${text}`;
}

/**
 * A map (zod record, or a free-form object): an object whose keys are data, not a fixed set of properties. An
 * object with `additionalProperties: false` and no properties is an empty object, not a map.
 */
function isMap(node: JsonObject): boolean {
  return node['type'] === 'object' && node['properties'] === undefined && node['additionalProperties'] !== false;
}

/** `pattern` anchored at both ends, meaning what it meant unanchored (a match anywhere in the text). */
function anchored(pattern: string): string {
  const start = pattern.startsWith('^') ? pattern : `^[\\s\\S]*?(?:${pattern})`;
  return start.endsWith('$') && !start.endsWith('\\$') ? start : `${start}[\\s\\S]*$`;
}

function portableNode(schema: unknown): JsonObject {
  if (!isObject(schema)) return { type: 'string' };
  const node: JsonObject = { ...schema };

  if (isMap(node)) {
    const keys = isObject(node['propertyNames']) ? portableNode(node['propertyNames']) : { type: 'string' };
    const values = portableNode(isObject(node['additionalProperties']) ? node['additionalProperties'] : {});
    const list: JsonObject = {
      type: 'array',
      items: {
        type: 'object',
        properties: { [KEY]: { ...keys, minLength: 1 }, [VALUE]: values },
        required: [KEY, VALUE],
      },
    };
    if (typeof node['description'] === 'string') list['description'] = node['description'];
    if (typeof node['minProperties'] === 'number') list['minItems'] = node['minProperties'];
    if (typeof node['maxProperties'] === 'number') list['maxItems'] = node['maxProperties'];
    describe(list, `Each ${KEY} at most once.`);
    return list;
  }

  // A union: `anyOf` of typed branches; a nullable one is its other branch marked `nullable`.
  const union = [node['oneOf'], node['anyOf']].find(Array.isArray);
  delete node['oneOf'];
  if (union !== undefined) {
    const branches = union.filter(option => !(isObject(option) && option['type'] === 'null'));
    const nullable = branches.length < union.length;
    if (branches.length === 1) {
      delete node['anyOf'];
      const only = portableNode(branches[0]);
      const merged: JsonObject = { ...only, ...node };
      if (nullable) merged['nullable'] = true;
      return portableNode(merged);
    }
    node['anyOf'] = branches.map(portableNode);
    if (nullable) node['nullable'] = true;
  }

  // A type array (["string", "null"]): one type, nullable.
  const type = node['type'];
  if (Array.isArray(type)) {
    const types = type.filter(t => t !== 'null');
    if (types.length < type.length) node['nullable'] = true;
    if (types.length === 1) node['type'] = types[0];
    else {
      delete node['type'];
      node['anyOf'] = types.map(t => ({ type: t }));
    }
  }

  // `const`: a one-value enum (strings), or the rule in words (other values; zod checks it).
  if ('const' in node) {
    const value = node['const'];
    delete node['const'];
    if (typeof value === 'string') {
      node['enum'] = [value];
      node['type'] ??= 'string';
    } else {
      node['type'] ??= value === null ? 'string' : typeof value === 'number' ? 'number' : typeof value;
      const said = typeof node['description'] === 'string' ? node['description'] : '';
      if (!said.includes(`Always ${JSON.stringify(value)}`)) describe(node, `Always ${JSON.stringify(value)}.`);
    }
  }
  if (Array.isArray(node['enum']) && node['enum'].some(value => typeof value !== 'string')) {
    const values = node['enum'];
    delete node['enum'];
    describe(node, `One of: ${values.map(value => JSON.stringify(value)).join(', ')}.`);
  }

  // Strings: "not blank" is a minimum length; any other pattern anchored so every decoder reads it alike.
  if (typeof node['pattern'] === 'string') {
    if (node['pattern'] === NOT_BLANK) {
      delete node['pattern'];
      node['minLength'] = Math.max(1, typeof node['minLength'] === 'number' ? node['minLength'] : 0);
    } else {
      node['pattern'] = anchored(node['pattern']);
    }
  }

  // Exclusive bounds become inclusive ones (whole numbers) or a sentence (zod checks the exact bound).
  for (const [exclusive, inclusive, step, words] of [
    ['exclusiveMinimum', 'minimum', 1, 'greater than'],
    ['exclusiveMaximum', 'maximum', -1, 'less than'],
  ] as const) {
    const bound = node[exclusive];
    if (typeof bound !== 'number') continue;
    if (node['type'] === 'integer') node[inclusive] = bound + step;
    else describe(node, `Must be ${words} ${bound}.`);
  }

  // zod bounds every integer by the safe-integer range: no model needs telling, and it rides in every request.
  if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
  if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];

  if (node['uniqueItems'] === true) describe(node, 'Each item at most once.');

  if (node['type'] === 'array' && node['items'] === undefined) node['items'] = { type: 'string' };
  if (isObject(node['items'])) node['items'] = portableNode(node['items']);
  if (isObject(node['properties'])) {
    // A field Council fills itself is not asked for: it would only be billed, and a model's value would be replaced.
    const asked = Object.entries(node['properties']).filter(([, property]) => !isNotAsked(property));
    node['properties'] = Object.fromEntries(asked.map(([name, property]) => [name, portableNode(property)]));
    if (Array.isArray(node['required'])) {
      const names = new Set(asked.map(([name]) => name));
      node['required'] = node['required'].filter(name => typeof name === 'string' && names.has(name));
    }
  }
  if (Array.isArray(node['anyOf'])) node['anyOf'] = node['anyOf'].map(portableNode);
  if (node['type'] === undefined && node['anyOf'] === undefined) node['type'] = 'string';

  for (const keyword of Object.keys(node)) if (!PORTABLE_KEYWORDS.has(keyword)) delete node[keyword];
  return node;
}

/**
 * `schema` (full JSON Schema, as zod emits it) in the portable subset: `oneOf` as `anyOf` of typed branches,
 * `const` as a one-value enum, maps as lists of {key, value} entries, "not blank" as `minLength: 1`, patterns
 * anchored, nullable instead of type arrays, string enums only, no keyword outside the subset (the rules that
 * had no portable form said in the description). An object without properties is a map; `{}` (any value) is
 * sent as a string. A reply to it is turned back into the full shape by {@link fromPortableReply}.
 */
export function portableSchema(schema: JsonObject): JsonObject {
  const { $schema: _dialect, ...body } = schema;
  // A tool's input is an object with properties, even when it takes none (as Copilot's own normalizer makes it).
  if (body['type'] !== 'object' || !isObject(body['properties']))
    return { ...portableNode({ ...body, properties: {} }), type: 'object' };
  return portableNode(body);
}

/** What {@link fromPortableReply} does: turn maps back (before the reply's normalizer) or apply rules said in words (after it). */
export type PortableReplyPass = 'shape' | 'rules';

/**
 * A reply to a portable schema in the shape of the full `schema` it was made from. The 'shape' pass turns each list
 * of {key, value} entries where the full schema has a map into that map (a repeated key keeps its last value); the
 * 'rules' pass applies, where the intent is clear, the rules the portable schema could only say in words: a field
 * fixed to a non-string value gets it, a list whose items must be distinct loses its repeats (after the reply's own
 * normalizer, whose notes say more). Each change is noted; zod then checks the reply against the full rules.
 */
export function fromPortableReply(
  value: unknown,
  schema: unknown,
  pass: PortableReplyPass,
  note: (change: string) => void,
  at = '',
  inUnion = false,
): unknown {
  if (!isObject(schema)) return value;
  const label = at === '' ? 'the reply' : `\`${at}\``;
  const inner = (child: unknown, childSchema: unknown, childAt: string, union = false) =>
    fromPortableReply(child, childSchema, pass, note, childAt, union);
  if (pass === 'shape' && isMap(schema) && Array.isArray(value)) {
    const entries = value.filter(entry => isObject(entry) && typeof entry[KEY] === 'string') as JsonObject[];
    if (entries.length < value.length) return value;
    const map: JsonObject = {};
    for (const entry of entries) {
      const key = entry[KEY] as string;
      if (key in map) note(`kept the last value of the repeated key "${key}" in ${label}`);
      map[key] = inner(entry[VALUE], schema['additionalProperties'], `${at}.${key}`);
    }
    return map;
  }
  if (pass === 'rules' && isMap(schema) && isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, inner(child, schema['additionalProperties'], `${at}.${key}`)]),
    );
  }
  // A union's branch says what its own shape holds, not what the value must be: no fixed value is forced there.
  const fixed = schema['const'];
  if (
    pass === 'rules' &&
    !inUnion &&
    'const' in schema &&
    typeof fixed !== 'string' &&
    typeof value === typeof fixed &&
    value !== fixed
  ) {
    note(`set ${label} to ${JSON.stringify(fixed)}, its only allowed value`);
    return fixed;
  }
  let result = value;
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[keyword];
    if (Array.isArray(options)) for (const option of options) result = inner(result, option, at, true);
  }
  if (Array.isArray(result) && schema['items'] !== undefined) {
    const items = result.map((item, index) => inner(item, schema['items'], `${at}[${index}]`));
    if (pass === 'shape' || schema['uniqueItems'] !== true) return items;
    const seen = new Set<string>();
    const distinct = items.filter(item => {
      const key = JSON.stringify(item);
      return seen.has(key) ? false : (seen.add(key), true);
    });
    if (distinct.length < items.length) note(`dropped ${items.length - distinct.length} repeated item(s) of ${label}`);
    return distinct;
  }
  const properties = schema['properties'];
  if (isObject(result) && isObject(properties)) {
    const copy: JsonObject = { ...result };
    for (const [name, property] of Object.entries(properties))
      if (name in copy) copy[name] = inner(copy[name], property, at ? `${at}.${name}` : name);
    return copy;
  }
  return result;
}
