/* What a model that reads field descriptions takes from them; shared by the unit and the in-VS-Code schema-following models. */
const POINTER = /One of the values listed for `([^`]+)`\.$/;
const EACH_ONCE = 'Each item at most once.';

/**
 * The schema as a model that reads field descriptions sees it: a field whose description says its values are those
 * listed at another field (a long list is spelled out once per schema) takes that field's list, and a list whose
 * description says "Each item at most once." has distinct items. The fields are found
 * by the labels the descriptions use (`a[].b`, `keys of c`, `values of d`).
 */
export function withListsReadBack(schema: unknown): unknown {
  const copy = structuredClone(schema);
  const listed = new Map<string, unknown[]>();
  const pointing: { node: Record<string, unknown>; at: string }[] = [];
  const visit = (node: unknown, label: string): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record['enum']) && !listed.has(label)) listed.set(label, record['enum'] as unknown[]);
    const at = typeof record['description'] === 'string' ? POINTER.exec(record['description'])?.[1] : undefined;
    if (at !== undefined) pointing.push({ node: record, at });
    // A rule the portable subset says only in words is read as the rule it names.
    if (typeof record['description'] === 'string' && record['description'].includes(EACH_ONCE))
      record['uniqueItems'] = true;
    for (const [keyword, child] of Object.entries(record)) {
      if (keyword === 'properties' && typeof child === 'object' && child !== null)
        for (const [name, property] of Object.entries(child)) visit(property, label ? `${label}.${name}` : name);
      else if (keyword === 'items') visit(child, `${label}[]`);
      else if (keyword === 'additionalProperties') visit(child, `values of ${label}`);
      else if (keyword === 'propertyNames') visit(child, `keys of ${label}`);
      else if (['anyOf', 'oneOf', 'allOf'].includes(keyword) && Array.isArray(child))
        for (const option of child) visit(option, label);
    }
  };
  visit(copy, '');
  for (const { node, at } of pointing) {
    const values = listed.get(at);
    if (values === undefined) throw new Error(`a description points at \`${at}\`, which lists nothing`);
    node['enum'] = values;
  }
  return copy;
}
