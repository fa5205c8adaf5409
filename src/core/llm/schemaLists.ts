import { isObject, type JsonObject } from './replyNormalizing';

/**
 * A value list this long (as JSON) is spelled out once per schema. Per-request enums repeat the same list at every
 * field that takes it (a workspace's files in a discovery report: five fields; a collector's two or more input
 * context ids, some 85 characters each, at its inputs and its conflicts), and the schema is billed with each request;
 * past this size the sentence that points back at the first listing (some 60 characters) costs less than the list.
 */
export const LISTED_ONCE_MIN_CHARS = 160;

/**
 * Spells each long `enum` of a JSON Schema out at its first field (in the order a model reads the schema) and,
 * at every later field with the same list, drops the enum and says in the field's description which field lists
 * the values. `$ref` would say it shorter, but Gemini's tool schemas reject it. The zod schema behind it still
 * checks every field against the list, so a value outside it is repaired like any other.
 */
export function spellListsOnce(sent: JsonObject): JsonObject {
  // A copy: the converter may share one node between two fields, and only the later one loses its list.
  const schema = structuredClone(sent);
  const firstListedAt = new Map<string, string>();
  const visit = (node: unknown, label: string): void => {
    if (!isObject(node)) return;
    const values = node['enum'];
    if (Array.isArray(values)) {
      const key = JSON.stringify(values);
      const first = firstListedAt.get(key);
      if (key.length >= LISTED_ONCE_MIN_CHARS && first !== undefined) {
        delete node['enum'];
        const said = typeof node['description'] === 'string' ? `${node['description']} ` : '';
        node['description'] = `${said}One of the values listed for \`${first}\`.`;
      } else if (first === undefined) {
        firstListedAt.set(key, label);
      }
    }
    // Own key order is the order the schema is sent in, so "first" is the listing a model has already read.
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === 'properties' && isObject(child)) {
        for (const [name, property] of Object.entries(child)) visit(property, label ? `${label}.${name}` : name);
      } else if (keyword === 'items') {
        visit(child, `${label}[]`);
      } else if (keyword === 'additionalProperties') {
        visit(child, `values of ${label}`);
      } else if (keyword === 'propertyNames') {
        visit(child, `keys of ${label}`);
      } else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') && Array.isArray(child)) {
        for (const option of child) visit(option, label);
      }
    }
  };
  visit(schema, '');
  return schema;
}
