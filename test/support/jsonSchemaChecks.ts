type Json = { readonly [key: string]: unknown };

/**
 * Every property (at any depth) of a JSON Schema without a description, by its path: each becomes a hover in an
 * editor. A discriminator constant, and a union whose every option is described, count as described.
 */
export function undescribedProperties(schema: unknown, at = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => undescribedProperties(item, `${at}[${index}]`));
  const node = schema as Json;
  const missing: string[] = [];
  const properties = node['properties'];
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties as Json)) {
      const prop = property as Json;
      const options = prop['anyOf'];
      const described =
        prop['description'] !== undefined ||
        prop['const'] !== undefined ||
        (Array.isArray(options) && options.every(option => (option as Json)['description'] !== undefined));
      if (!described) missing.push(`${at}.${name}`);
    }
  }
  for (const [key, value] of Object.entries(node)) missing.push(...undescribedProperties(value, `${at}.${key}`));
  return missing;
}
