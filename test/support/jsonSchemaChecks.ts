type Json = { readonly [key: string]: unknown };

/**
 * Field names that say what they take: a description would only restate them, and it would be billed with every
 * request that sends the schema (model-contract.md, "Costs"). A field not named here needs a description or a list.
 */
export const SELF_DESCRIBING_FIELDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'summary',
  'label',
  'rationale',
  'tags',
  'confidence',
  'confidenceScore',
  'conflictDescription',
  'resolutionApproach',
  'diagrams',
  'edges',
  'edit',
  'estimatedHours',
  'estimatedImpact',
  'implementationSummary',
  'keyPatterns',
  'modules',
  'relatedFilePaths',
  'relatedFiles',
  'semanticTags',
  // A finding id: the referenceId's description says the kinds share one namespace.
  'tagId',
  'queryId',
  'diagramId',
  // Said by the prompt, which every request of the stage sends anyway.
  'architectureOverview',
  'fileReferences',
  'crossLinks',
  'generatedQueries',
  'mergeStrategy',
  'conflictResolutions',
  'decision',
  'mergedTags',
  'recommendations',
  'queryFindings',
  'results',
  'nodes',
  'unifiedDiagram',
  'tasks',
]);

/**
 * Every property (at any depth) of a JSON Schema without a description, by its path: each becomes a hover in an
 * editor. A discriminator constant, a list of values (they say what the field takes), a union whose every option is
 * described, and a field named in `selfDescribing` count as described.
 */
export function undescribedProperties(
  schema: unknown,
  selfDescribing: ReadonlySet<string> = new Set(),
  at = '$',
): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema))
    return schema.flatMap((item, index) => undescribedProperties(item, selfDescribing, `${at}[${index}]`));
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
        Array.isArray(prop['enum']) ||
        selfDescribing.has(name) ||
        (Array.isArray(options) && options.every(option => (option as Json)['description'] !== undefined));
      if (!described) missing.push(`${at}.${name}`);
    }
  }
  for (const [key, value] of Object.entries(node))
    missing.push(...undescribedProperties(value, selfDescribing, `${at}.${key}`));
  return missing;
}
