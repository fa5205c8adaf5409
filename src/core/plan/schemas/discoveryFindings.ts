import { z } from 'zod';
import { addIssue, nonBlank, requireUnique, unitInterval, workspacePath } from './common';
import { contextIdOf } from './contextId';
import { DiagramRepresentation, FileReference, SemanticTag } from './discovery';

/** Summary of one module of the codebase. */
export const ModuleOverview = z
  .object({
    moduleName: nonBlank('Name of the module, unique within the code map.'),
    rootPath: workspacePath('Folder or file at the root of the module.'),
    summary: nonBlank('What the module does and how it fits in.'),
    keyFiles: z.array(workspacePath('A key file.')).describe('The files to read first.'),
  })
  .describe('A module of the codebase.');
/** Summary of one module of the codebase. */
export type ModuleOverview = z.infer<typeof ModuleOverview>;

/** The unified view of the codebase a discovery collector builds from all reports. */
export const CodeMap = z
  .object({
    modules: z.array(ModuleOverview).min(1).describe('Module summaries; names unique.'),
    deduplicatedReferences: z
      .array(FileReference)
      .min(1)
      .describe('References merged from all reports; each location once, referenceIds unique.'),
    unifiedDiagram: DiagramRepresentation.describe('A composite diagram of the modules.'),
    mergedTags: z.array(SemanticTag).min(1).describe('Tags merged from all reports; tagIds unique.'),
  })
  .superRefine((value, ctx) => {
    requireUnique(ctx, value.modules, module => module.moduleName, ['modules'], 'moduleName');
    requireUnique(ctx, value.deduplicatedReferences, ref => ref.referenceId, ['deduplicatedReferences'], 'referenceId');
    const locations = new Set<string>();
    value.deduplicatedReferences.forEach((ref, index) => {
      const location = `${ref.filePath}:${ref.startLine}-${ref.endLine}`;
      if (locations.has(location))
        addIssue(ctx, ['deduplicatedReferences', index], `location ${location} appears twice`);
      locations.add(location);
    });
    requireUnique(ctx, value.mergedTags, tag => tag.tagId, ['mergedTags'], 'tagId');
  })
  .describe('Unified code map.');
/** The unified view of the codebase. */
export type CodeMap = z.infer<typeof CodeMap>;

/** How urgent a recommendation is. */
const RecommendationPriority = z.enum(['critical', 'high', 'medium', 'low']);

/** An actionable recommendation for the planning stage. */
export const Recommendation = z
  .object({
    recommendationId: nonBlank('Id of the recommendation, unique within the result.'),
    title: nonBlank('Short title.'),
    description: nonBlank('Full description.'),
    priority: RecommendationPriority.describe('Priority level.'),
    supportingDiscoveryIds: z
      .array(contextIdOf('discovery-agent', 'discovery-collector'))
      .min(1)
      .describe('Context ids of the discovery reports that support it; each must be an input.'),
    relatedFilePaths: z.array(workspacePath('A related file.')).describe('Related files.'),
    estimatedImpact: nonBlank('Expected impact.').optional(),
  })
  .describe('A recommendation for planning.');
/** An actionable recommendation for the planning stage. */
export type Recommendation = z.infer<typeof Recommendation>;

/** What was found for one generated query. */
export const QueryFindings = z
  .object({
    queryId: nonBlank('Id of the generated query these findings answer; unique within the result.'),
    originalQuery: nonBlank('The query text.'),
    results: z.array(FileReference).describe('References found; may be empty.'),
    confidenceScore: unitInterval('Confidence in the findings, 0.0 to 1.0.'),
    summary: nonBlank('Summary of the findings.'),
  })
  .describe('Findings for one query.');
/** What was found for one generated query. */
export type QueryFindings = z.infer<typeof QueryFindings>;
