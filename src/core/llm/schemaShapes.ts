import { isObject, type JsonObject } from './replyNormalizing';

/**
 * An object shape whose field descriptions are this long (as JSON) is described once per schema. A shape used at two
 * fields (a discovery collector's references, merged and again per query) would otherwise repeat every field's
 * description, billed with each request; past this size the pointer back costs less than the repeat.
 */
export const DESCRIBED_ONCE_MIN_CHARS = 120;

/** `node` without any `description`, at any depth: the shape a model fills, whatever the words around it. */
function bare(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(bare);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([keyword]) => keyword !== 'description')
      .map(([keyword, child]) => [keyword, keyword === 'properties' ? bareProperties(child) : bare(child)]),
  );
}

/** `properties` keeps its field names (a field may be called "description") and loses its fields' descriptions. */
function bareProperties(properties: unknown): unknown {
  if (!isObject(properties)) return properties;
  return Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, bare(field)]));
}

/**
 * The shape of `node` as text, descriptions left out: a description is a string, a field named "description" an
 * object, so the one is dropped and the other kept. One native pass; it runs for every object of every schema sent.
 */
function shapeKey(node: JsonObject): string {
  return JSON.stringify(node, (keyword, value: unknown) =>
    keyword === 'description' && typeof value === 'string' ? undefined : value,
  );
}

/** Removes every description below `node` (its own kept) and returns how many characters that saved. */
function dropInnerDescriptions(node: JsonObject): number {
  const before = JSON.stringify(node).length;
  const own = node['description'];
  Object.assign(node, bare(node));
  if (own !== undefined) node['description'] = own;
  return before - JSON.stringify(node).length;
}

/**
 * Describes each repeated object shape at its first field only (in the order a model reads the schema): a later
 * field with the same shape (same fields, types and rules, whatever their descriptions) keeps its fields and rules,
 * loses their descriptions and says which field describes them. `$ref` would say it shorter, but Gemini's tool
 * schemas reject it; an object without `properties` fails there too, so the fields stay. The zod schema behind it
 * still checks every field.
 */
export function describeShapesOnce(sent: JsonObject): JsonObject {
  const schema = structuredClone(sent);
  const firstAt = new Map<string, string>();
  const visit = (node: unknown, label: string): void => {
    if (!isObject(node)) return;
    if (node['type'] === 'object' && isObject(node['properties']) && label !== '') {
      const key = shapeKey(node);
      const first = firstAt.get(key);
      if (first === undefined) firstAt.set(key, label);
      else {
        const trial = structuredClone(node);
        if (dropInnerDescriptions(trial) >= DESCRIBED_ONCE_MIN_CHARS) {
          dropInnerDescriptions(node);
          const said = typeof node['description'] === 'string' ? `${node['description']} ` : '';
          node['description'] = `${said}Fields as described at \`${first}\`.`;
          return;
        }
      }
    }
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === 'properties' && isObject(child)) {
        for (const [name, property] of Object.entries(child)) visit(property, label ? `${label}.${name}` : name);
      } else if (keyword === 'items') {
        visit(child, `${label}[]`);
      } else if (keyword === 'anyOf' && Array.isArray(child)) {
        for (const option of child) visit(option, label);
      }
    }
  };
  visit(schema, '');
  return schema;
}
