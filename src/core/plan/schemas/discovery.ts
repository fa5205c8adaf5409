import { z } from 'zod';
import { addIssue, checkLineRange, nonBlank, requireUnique, unitInterval, workspacePathProblem } from './common';
import { agentRecordStamp } from './recordStamp';
import { distinctItems, ENUM_CAP, existingFile, lineNumber } from './vocabulary';

/** Minimum semantic tags and generated queries a discovery report has per module (spec 000). */
const MIN_TAGS_PER_REPORT = 5;
/** Minimum generated queries a discovery report has per module (spec 000). */
const MIN_QUERIES_PER_REPORT = 3;

// Each schema below is built from the files a request may cite; without them (the published record) any workspace path.

/** A location in the codebase that matters for the goal. */
export function fileReference(files?: ReadonlySet<string>) {
  return z
    .object({
      referenceId: nonBlank('Unique in the report, e.g. "ref-1"; tags and links cite it.'),
      filePath: existingFile(files),
      startLine: lineNumber('1-based.'),
      endLine: lineNumber('Inclusive; not before startLine.'),
      relevanceScore: unitInterval('Relevance to the goal.'),
      snippet: nonBlank('The code at those lines, or its key part.'),
      tags: z.array(z.string()),
    })
    .superRefine(checkLineRange);
}
/** A location in the codebase that matters for the goal. */
export type FileReference = z.infer<ReturnType<typeof fileReference>>;

/** Kinds of relationship between findings. */
const LinkType = z.enum(['calls', 'depends_on', 'implements', 'extends', 'related_to', 'data_flow']);

/** A relationship between two findings of the same report. */
const CrossLink = z
  .object({
    linkId: nonBlank('Unique in the report.'),
    sourceReferenceId: nonBlank('A referenceId, tagId, queryId or diagramId of this report.'),
    targetReferenceId: nonBlank('Another finding id of this report.'),
    linkType: LinkType,
    description: nonBlank(),
  })
  .superRefine((value, ctx) => {
    if (value.sourceReferenceId === value.targetReferenceId) {
      addIssue(ctx, ['targetReferenceId'], 'a link must connect two different findings');
    }
  });

/** Categories of semantic tags. */
const TagCategory = z.enum([
  'architecture',
  'pattern',
  'data_flow',
  'entry_point',
  'test',
  'integration',
  'security',
  'performance',
]);

/** A categorisation label applied to findings. */
export const SemanticTag = z.object({
  tagId: nonBlank('Unique in the report.'),
  tagName: nonBlank('e.g. "request-validation".'),
  tagCategory: TagCategory,
  confidence: unitInterval(),
  appliedTo: z.array(nonBlank()).min(1).describe('Ids of the findings (usually referenceIds) it applies to.'),
});

/** Kinds of generated retrieval queries. */
const QueryType = z.enum(['code_search', 'pattern_find', 'dependency_trace', 'api_lookup', 'test_find']);

/** Relevance per file, each 0..1: keys limited to `files`, or (published record) any workspace-relative path. */
function pathScores(files: ReadonlySet<string> | undefined, description: string) {
  const score = unitInterval();
  if (files !== undefined) {
    // The JSON Schema limits the keys to the files (up to ENUM_CAP); zod keeps a plain record, since an enum key
    // would demand every key. Past the cap the description says it.
    if (files.size === 0 || files.size > ENUM_CAP)
      return z.record(z.string(), score).describe(`${description} Keys are workspace files.`);
    return z
      .record(z.string(), score)
      .describe(description)
      .meta({ propertyNames: { type: 'string', enum: [...files].sort() } });
  }
  return z
    .record(z.string(), score)
    .superRefine((value, ctx) => {
      for (const path of Object.keys(value)) {
        const problem = workspacePathProblem(path);
        if (problem !== undefined) addIssue(ctx, [path], `key "${path}" ${problem}`);
      }
    })
    .describe(`${description} Keys are workspace-relative paths, values 0.0 to 1.0.`);
}

/** Kinds of diagrams. */
const DiagramType = z.enum(['class', 'sequence', 'component', 'data_flow', 'dependency']);

/** An architectural diagram as nodes and edges (flat, so a model can produce it). */
export function diagram(files?: ReadonlySet<string>) {
  const node = z.object({
    nodeId: nonBlank('Unique in the diagram.'),
    label: nonBlank(),
    filePath: existingFile(files, 'The file it stands for, if any.').optional(),
  });
  const edge = z.object({
    fromNodeId: nonBlank('A nodeId of this diagram.'),
    toNodeId: nonBlank('A nodeId of this diagram.'),
    label: z.string().optional().describe('e.g. "calls".'),
  });
  return z
    .object({
      diagramId: nonBlank('Unique in the report.'),
      diagramType: DiagramType,
      title: nonBlank(),
      nodes: z.array(node).min(1),
      edges: z.array(edge),
      mermaidSource: z
        .string()
        .optional()
        .describe('The same diagram in Mermaid.')
        .meta({ notAsked: 'Council draws Mermaid from the nodes and edges.' }),
    })
    .superRefine((value, ctx) => {
      requireUnique(ctx, value.nodes, node => node.nodeId, ['nodes'], 'nodeId');
      const nodeIds = new Set(value.nodes.map(node => node.nodeId));
      value.edges.forEach((edge, index) => {
        if (!nodeIds.has(edge.fromNodeId))
          addIssue(ctx, ['edges', index, 'fromNodeId'], `unknown node "${edge.fromNodeId}"`);
        if (!nodeIds.has(edge.toNodeId)) addIssue(ctx, ['edges', index, 'toNodeId'], `unknown node "${edge.toNodeId}"`);
      });
    });
}
/** An architectural diagram. */
export type DiagramRepresentation = z.infer<ReturnType<typeof diagram>>;

/** The fields of a discovery report; every cited path is one of `files` when given. */
function reportShape(files: ReadonlySet<string> | undefined) {
  return {
    architectureOverview: nonBlank(),
    fileReferences: z.array(
      fileReference(files).safeExtend({
        referenceId: nonBlank(
          'e.g. "ref-1"; tags and links cite it. All finding ids (referenceId, tagId, queryId, diagramId) differ.',
        ),
      }),
    ),
    crossLinks: z.array(CrossLink),
    semanticTags: z
      .array(
        SemanticTag.safeExtend({
          // The referenceId's description says the four kinds of finding id share one namespace: said once.
          tagId: nonBlank(),
          appliedTo: distinctItems(nonBlank(), 'Finding ids of this report (usually referenceIds) it applies to.').min(
            1,
          ),
        }),
      )
      .min(MIN_TAGS_PER_REPORT),
    generatedQueries: z
      .array(
        z.object({
          queryId: nonBlank(),
          queryText: nonBlank('A question a developer might ask about this code.'),
          expectedResultPaths: distinctItems(existingFile(files), 'Files a good search returns.').min(1),
          queryType: QueryType,
          groundTruthRelevance: pathScores(files, 'How relevant each file is to the query.'),
        }),
      )
      .min(MIN_QUERIES_PER_REPORT),
    diagrams: z.array(diagram(files).safeExtend({ diagramId: nonBlank() })),
    keyPatterns: z.array(z.string()),
    integrationPoints: z.array(z.string()).describe('Where this code meets other parts or systems.'),
    relevanceScores: pathScores(files, 'Relevance to the goal of each file cited in fileReferences.').meta({
      notAsked: "Council derives it: each cited file's highest relevanceScore in fileReferences.",
    }),
  };
}
type DiscoveryContent = z.infer<z.ZodObject<ReturnType<typeof reportShape>>>;

/** Report rules: finding ids unique across kinds, links and tags cite existing findings, scores cite referenced files. */
function checkReport(value: DiscoveryContent, ctx: z.RefinementCtx): void {
  const findings: readonly (readonly [string, readonly (string | number)[]])[] = [
    ...value.fileReferences.map((r, i) => [r.referenceId, ['fileReferences', i, 'referenceId']] as const),
    ...value.semanticTags.map((t, i) => [t.tagId, ['semanticTags', i, 'tagId']] as const),
    ...value.generatedQueries.map((q, i) => [q.queryId, ['generatedQueries', i, 'queryId']] as const),
    ...value.diagrams.map((d, i) => [d.diagramId, ['diagrams', i, 'diagramId']] as const),
  ];
  const findingIds = new Set<string>();
  for (const [id, path] of findings) {
    if (findingIds.has(id)) addIssue(ctx, path, `duplicate finding id "${id}"`);
    findingIds.add(id);
  }
  requireUnique(ctx, value.crossLinks, link => link.linkId, ['crossLinks'], 'linkId');
  value.crossLinks.forEach((link, index) => {
    for (const field of ['sourceReferenceId', 'targetReferenceId'] as const) {
      if (!findingIds.has(link[field])) addIssue(ctx, ['crossLinks', index, field], `unknown finding "${link[field]}"`);
    }
  });
  value.semanticTags.forEach((tag, index) => {
    tag.appliedTo.forEach((id, idIndex) => {
      if (!findingIds.has(id)) addIssue(ctx, ['semanticTags', index, 'appliedTo', idIndex], `unknown finding "${id}"`);
    });
  });
  const referencedPaths = new Set(value.fileReferences.map(reference => reference.filePath));
  for (const path of Object.keys(value.relevanceScores)) {
    if (!referencedPaths.has(path)) addIssue(ctx, ['relevanceScores', path], `"${path}" is not in fileReferences`);
  }
}

/**
 * What a discovery agent model fills in, for a request whose citable files are `files`; without them, the draft the
 * published record is built on.
 */
export function discoveryReportSchema(files?: ReadonlySet<string>) {
  return z
    .object(reportShape(files))
    .superRefine(checkReport)
    .describe('What a discovery agent found about its part of the codebase.');
}

/** A discovery agent's structured output: the draft with the pipeline's stamp. */
export const DiscoveryReport = discoveryReportSchema()
  .safeExtend(agentRecordStamp('discovery-agent', 'report'))
  .describe('A discovery agent output.')
  .meta({ id: 'DiscoveryReport' });
export type DiscoveryReport = z.infer<typeof DiscoveryReport>;
