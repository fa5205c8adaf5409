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
      referenceId: nonBlank('Id of this reference, unique within the report, e.g. "ref-1"; tags and links cite it.'),
      filePath: existingFile(files, 'File the reference points into; an existing workspace file.'),
      startLine: lineNumber('First line, 1-based.'),
      endLine: lineNumber('Last line, inclusive; not before startLine.'),
      relevanceScore: unitInterval('Relevance to the goal, 0.0 to 1.0.'),
      snippet: nonBlank('The code at those lines, or its key part.'),
      tags: z.array(z.string()).describe('Free-form tags for this reference.'),
    })
    .superRefine(checkLineRange)
    .describe('A location in the codebase.');
}
/** A location in the codebase that matters for the goal. */
export type FileReference = z.infer<ReturnType<typeof fileReference>>;

/** Kinds of relationship between findings. */
const LinkType = z.enum(['calls', 'depends_on', 'implements', 'extends', 'related_to', 'data_flow']);

/** A relationship between two findings of the same report. */
const CrossLink = z
  .object({
    linkId: nonBlank('Id of this link, unique within the report.'),
    sourceReferenceId: nonBlank('Id of the source finding: a referenceId, tagId, queryId or diagramId of this report.'),
    targetReferenceId: nonBlank('Id of the target finding of this report; different from the source.'),
    linkType: LinkType.describe('Type of relationship.'),
    description: nonBlank('What the relationship is.'),
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

/** Kinds of generated retrieval queries. */
const QueryType = z.enum(['code_search', 'pattern_find', 'dependency_trace', 'api_lookup', 'test_find']);

/** Relevance per file, each 0..1: keys limited to `files`, or (published record) any workspace-relative path. */
function pathScores(files: ReadonlySet<string> | undefined, description: string) {
  const score = unitInterval('Relevance 0.0 to 1.0.');
  if (files !== undefined) {
    // The JSON Schema limits the keys to the files (up to ENUM_CAP); zod keeps a plain record, since an enum key
    // would demand every key.
    const record = z.record(z.string(), score).describe(`${description} Keys are workspace files.`);
    if (files.size === 0 || files.size > ENUM_CAP) return record;
    return record.meta({ propertyNames: { type: 'string', enum: [...files].sort() } });
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
    nodeId: nonBlank('Id of the node, unique within the diagram.'),
    label: nonBlank('What the node shows.'),
    filePath: existingFile(files, 'File the node stands for, if any; an existing workspace file.').optional(),
  });
  const edge = z.object({
    fromNodeId: nonBlank('Id of the start node; a nodeId of this diagram.'),
    toNodeId: nonBlank('Id of the end node; a nodeId of this diagram.'),
    label: z.string().optional().describe('What the edge means, e.g. "calls".'),
  });
  return z
    .object({
      diagramId: nonBlank('Id of the diagram, unique within the report.'),
      diagramType: DiagramType.describe('Type of diagram.'),
      title: nonBlank('Diagram title.'),
      nodes: z.array(node).min(1).describe('Nodes; at least one, each nodeId different.'),
      edges: z.array(edge).describe('Edges between nodes of this diagram; may be empty.'),
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
}
/** An architectural diagram. */
export type DiagramRepresentation = z.infer<ReturnType<typeof diagram>>;

const FINDING_ID = 'Finding ids (referenceId, tagId, queryId, diagramId) are all different from each other.';

/** The fields of a discovery report; every cited path is one of `files` when given. */
function reportShape(files: ReadonlySet<string> | undefined) {
  return {
    architectureOverview: nonBlank('High-level overview of the part of the codebase examined.'),
    fileReferences: z
      .array(
        fileReference(files).safeExtend({
          referenceId: nonBlank(`Id of this reference, e.g. "ref-1"; tags and links cite it. ${FINDING_ID}`),
        }),
      )
      .describe('Code locations that matter; referenceIds unique.'),
    crossLinks: z.array(CrossLink).describe('Relationships between findings of this report; linkIds unique.'),
    semanticTags: z
      .array(
        SemanticTag.safeExtend({
          tagId: nonBlank(`Id of this tag. ${FINDING_ID}`),
          appliedTo: distinctItems(
            nonBlank('A finding id of this report.'),
            'Ids of findings of this report (usually referenceIds) it applies to; at least one.',
          ).min(1),
        }),
      )
      .min(MIN_TAGS_PER_REPORT)
      .describe(`At least ${MIN_TAGS_PER_REPORT} tags; tagIds unique.`),
    generatedQueries: z
      .array(
        z.object({
          queryId: nonBlank(`Id of this query. ${FINDING_ID}`),
          queryText: nonBlank('A question a developer might ask about this code.'),
          expectedResultPaths: distinctItems(
            existingFile(files, 'An expected result file.'),
            'Files a good search returns.',
          ).min(1),
          queryType: QueryType.describe('Type of query.'),
          groundTruthRelevance: pathScores(files, 'How relevant each file is to the query.'),
        }),
      )
      .min(MIN_QUERIES_PER_REPORT)
      .describe(`At least ${MIN_QUERIES_PER_REPORT} retrieval queries; queryIds unique.`),
    diagrams: z
      .array(diagram(files).safeExtend({ diagramId: nonBlank(`Id of the diagram. ${FINDING_ID}`) }))
      .describe('Architectural diagrams; may be empty.'),
    keyPatterns: z.array(z.string()).describe('Key patterns found.'),
    integrationPoints: z.array(z.string()).describe('Where this code integrates with other parts or systems.'),
    relevanceScores: pathScores(
      files,
      'Relevance of each referenced file to the goal; only files cited in fileReferences.',
    ),
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
