import { z } from 'zod';
import {
  addIssue,
  checkLineRange,
  nonBlank,
  requireUnique,
  unitInterval,
  workspacePath,
  workspacePathProblem,
  draftSchema,
} from './common';
import { agentRecordStamp } from './recordStamp';

/** Minimum semantic tags and generated queries a discovery report has per module (spec 000). */
export const MIN_TAGS_PER_REPORT = 5;
/** Minimum generated queries a discovery report has per module (spec 000). */
export const MIN_QUERIES_PER_REPORT = 3;

/** A location in the codebase that matters for the goal. */
export const FileReference = z
  .object({
    referenceId: nonBlank('Id of this reference, unique within the report, e.g. "ref-1"; tags and links cite it.'),
    filePath: workspacePath('File the reference points into.'),
    startLine: z.number().int().min(1).describe('First line, 1-based.'),
    endLine: z.number().int().min(1).describe('Last line, inclusive; >= startLine.'),
    relevanceScore: unitInterval('Relevance to the goal, 0.0 to 1.0.'),
    snippet: nonBlank('The code at those lines, or its key part.'),
    tags: z.array(z.string()).describe('Free-form tags for this reference.'),
  })
  .superRefine(checkLineRange)
  .describe('A location in the codebase.');
/** A location in the codebase that matters for the goal. */
export type FileReference = z.infer<typeof FileReference>;

/** Kinds of relationship between findings. */
const LinkType = z.enum(['calls', 'depends_on', 'implements', 'extends', 'related_to', 'data_flow']);

/** A relationship between two findings of the same report. */
export const CrossLink = z
  .object({
    linkId: nonBlank('Id of this link, unique within the report.'),
    sourceReferenceId: nonBlank('Id of the source finding (a referenceId, tagId, queryId or diagramId).'),
    targetReferenceId: nonBlank('Id of the target finding; different from the source.'),
    linkType: LinkType.describe('Type of relationship.'),
    description: nonBlank('What the relationship is.'),
  })
  .superRefine((value, ctx) => {
    if (value.sourceReferenceId === value.targetReferenceId) {
      addIssue(ctx, ['targetReferenceId'], 'a link must connect two different findings');
    }
  })
  .describe('A relationship between two findings.');
/** A relationship between two findings. */
export type CrossLink = z.infer<typeof CrossLink>;

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
export const SemanticTag = z
  .object({
    tagId: nonBlank('Id of this tag, unique within the report.'),
    tagName: nonBlank('The tag, e.g. "request-validation".'),
    tagCategory: TagCategory.describe('Category of the tag.'),
    confidence: unitInterval('Confidence the tag applies, 0.0 to 1.0.'),
    appliedTo: z
      .array(nonBlank('A finding id.'))
      .min(1)
      .describe('Ids of the findings (usually referenceIds) it applies to.'),
  })
  .describe('A categorisation label.');
/** A categorisation label applied to findings. */
export type SemanticTag = z.infer<typeof SemanticTag>;

/** Kinds of generated retrieval queries. */
const QueryType = z.enum(['code_search', 'pattern_find', 'dependency_trace', 'api_lookup', 'test_find']);

/** Relevance per workspace-relative path, each 0..1. */
function pathScores(description: string) {
  return z
    .record(z.string(), unitInterval('Relevance 0.0 to 1.0.'))
    .superRefine((value, ctx) => {
      for (const path of Object.keys(value)) {
        const problem = workspacePathProblem(path);
        if (problem !== undefined) addIssue(ctx, [path], `key "${path}" ${problem}`);
      }
    })
    .describe(`${description} Keys are workspace-relative paths, values 0.0 to 1.0.`);
}

/** A search query whose expected answers are known, for retrieval evaluation. */
export const GeneratedQuery = z
  .object({
    queryId: nonBlank('Id of this query, unique within the report.'),
    queryText: nonBlank('A question a developer might ask about this code.'),
    expectedResultPaths: z
      .array(workspacePath('An expected result file.'))
      .min(1)
      .describe('Files a good search returns.'),
    queryType: QueryType.describe('Type of query.'),
    groundTruthRelevance: pathScores('How relevant each file is to the query.'),
  })
  .describe('A retrieval query with its expected results.');
/** A search query whose expected answers are known. */
export type GeneratedQuery = z.infer<typeof GeneratedQuery>;

/** Kinds of diagrams. */
const DiagramType = z.enum(['class', 'sequence', 'component', 'data_flow', 'dependency']);

/** A node of a diagram. */
export const DiagramNode = z
  .object({
    nodeId: nonBlank('Id of the node, unique within the diagram.'),
    label: nonBlank('What the node shows.'),
    filePath: workspacePath('File the node stands for, if any.').optional(),
  })
  .describe('A diagram node.');

/** An edge of a diagram. */
export const DiagramEdge = z
  .object({
    fromNodeId: nonBlank('Id of the start node.'),
    toNodeId: nonBlank('Id of the end node.'),
    label: z.string().optional().describe('What the edge means, e.g. "calls".'),
  })
  .describe('A diagram edge.');

/** An architectural diagram as nodes and edges (flat, so a model can produce it). */
export const DiagramRepresentation = z
  .object({
    diagramId: nonBlank('Id of the diagram, unique within the report.'),
    diagramType: DiagramType.describe('Type of diagram.'),
    title: nonBlank('Diagram title.'),
    nodes: z.array(DiagramNode).min(1).describe('Nodes; at least one, ids unique.'),
    edges: z.array(DiagramEdge).describe('Edges between existing nodes; may be empty.'),
    mermaidSource: z.string().optional().describe('The same diagram as Mermaid source, if useful.'),
  })
  .superRefine((value, ctx) => {
    requireUnique(ctx, value.nodes, node => node.nodeId, ['nodes'], 'nodeId');
    const nodeIds = new Set(value.nodes.map(node => node.nodeId));
    value.edges.forEach((edge, index) => {
      if (!nodeIds.has(edge.fromNodeId))
        addIssue(ctx, ['edges', index, 'fromNodeId'], `unknown node "${edge.fromNodeId}"`);
      if (!nodeIds.has(edge.toNodeId)) addIssue(ctx, ['edges', index, 'toNodeId'], `unknown node "${edge.toNodeId}"`);
    });
  })
  .describe('An architectural diagram.');
/** An architectural diagram. */
export type DiagramRepresentation = z.infer<typeof DiagramRepresentation>;

const draftShape = {
  architectureOverview: nonBlank('High-level overview of the part of the codebase examined.'),
  fileReferences: z.array(FileReference).describe('Code locations that matter; referenceIds unique.'),
  crossLinks: z.array(CrossLink).describe('Relationships between findings of this report.'),
  semanticTags: z.array(SemanticTag).min(MIN_TAGS_PER_REPORT).describe(`At least ${MIN_TAGS_PER_REPORT} tags.`),
  generatedQueries: z
    .array(GeneratedQuery)
    .min(MIN_QUERIES_PER_REPORT)
    .describe(`At least ${MIN_QUERIES_PER_REPORT} retrieval queries.`),
  diagrams: z.array(DiagramRepresentation).describe('Architectural diagrams; may be empty.'),
  keyPatterns: z.array(z.string()).describe('Key patterns found.'),
  integrationPoints: z.array(z.string()).describe('Where this code integrates with other parts or systems.'),
  relevanceScores: pathScores('Relevance of each referenced file to the goal; only files in fileReferences.'),
};
type DiscoveryContent = z.infer<z.ZodObject<typeof draftShape>>;

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

/** What a discovery agent model fills in; the pipeline adds ids and version to make a DiscoveryReport. */
export const DiscoveryReportDraft = draftSchema(
  draftShape,
  checkReport,
  'What a discovery agent found about its part of the codebase.',
);
/** What a discovery agent model fills in. */
export type DiscoveryReportDraft = z.infer<typeof DiscoveryReportDraft>;

/** A discovery agent's structured output. */
export const DiscoveryReport = z
  .object({
    ...agentRecordStamp('discovery-agent', 'report'),
    ...draftShape,
  })
  .superRefine(checkReport)
  .describe('A discovery agent output.')
  .meta({ id: 'DiscoveryReport' });
/** A discovery agent's structured output. */
export type DiscoveryReport = z.infer<typeof DiscoveryReport>;
