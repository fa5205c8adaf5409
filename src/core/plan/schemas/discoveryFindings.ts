import { z } from 'zod';
import { addIssue, nonBlank, requireUnique, unitInterval } from './common';
import { inputIdOf, type CollectorVocabulary } from './consolidation';
import { diagram, fileReference, SemanticTag } from './discovery';
import { distinctItems, existingFile, foldersOf, oneOf } from './vocabulary';

// Built from what a discovery collector request may cite (files, its inputs, the reports' queries); without it, the
// published record's.

/** What is valid in one discovery collector request: its inputs and agents, the files and the reports' queries. */
export interface DiscoveryCollectorVocabulary extends CollectorVocabulary {
  /** The workspace files it may cite (`citableFiles`). */
  readonly files: ReadonlySet<string>;
  /** Ids of the generated queries in the reports being consolidated. */
  readonly queryIds: readonly string[];
}

/** The unified view of the codebase a discovery collector builds from all reports. */
export function codeMap(files?: ReadonlySet<string>) {
  const module = z.object({
    moduleName: nonBlank('Name of the module, unique within the code map.'),
    rootPath:
      files === undefined
        ? existingFile(undefined, 'Folder or file at the root of the module.')
        : oneOf(
            [...foldersOf(files), ...[...files].sort()],
            'Folder or file at the root of the module.',
            'Must be an existing workspace folder or file.',
          ),
    summary: nonBlank('What the module does and how it fits in.'),
    keyFiles: distinctItems(existingFile(files, 'A key file.'), 'The files to read first.'),
  });
  return z
    .object({
      modules: z.array(module).min(1).describe('Module summaries; at least one, moduleNames unique.'),
      deduplicatedReferences: z
        .array(fileReference(files))
        .min(1)
        .describe('References merged from all reports; each location (file and lines) once, referenceIds unique.'),
      unifiedDiagram: diagram(files),
      mergedTags: z.array(SemanticTag).min(1).describe('Tags merged from all reports; tagIds unique.'),
    })
    .superRefine((value, ctx) => {
      requireUnique(ctx, value.modules, module => module.moduleName, ['modules'], 'moduleName');
      requireUnique(
        ctx,
        value.deduplicatedReferences,
        ref => ref.referenceId,
        ['deduplicatedReferences'],
        'referenceId',
      );
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
}

/** How urgent a recommendation is. */
const RecommendationPriority = z.enum(['critical', 'high', 'medium', 'low']);

/** An actionable recommendation for the planning stage. */
export function recommendation(vocabulary?: DiscoveryCollectorVocabulary) {
  return z.object({
    recommendationId: nonBlank('Id of the recommendation, unique within the result.'),
    title: nonBlank('Short title.'),
    description: nonBlank('Full description.'),
    priority: RecommendationPriority.describe('Priority level.'),
    supportingDiscoveryIds: distinctItems(
      inputIdOf(vocabulary?.inputIds, 'Context id of a discovery report that supports it.'),
      'Context ids of the discovery reports that support it; each also listed in inputs.',
    ).min(1),
    relatedFilePaths: distinctItems(existingFile(vocabulary?.files, 'A related file.'), 'Related files.'),
    estimatedImpact: nonBlank('Expected impact.').optional(),
  });
}
/** An actionable recommendation for the planning stage. */
export type Recommendation = z.infer<ReturnType<typeof recommendation>>;

/** What was found for one generated query. */
export function queryFindings(vocabulary?: DiscoveryCollectorVocabulary) {
  return z.object({
    queryId: oneOf(
      vocabulary?.queryIds,
      'Id of the generated query these findings answer; each query once.',
      'Each query once.',
    ),
    originalQuery: nonBlank('The query text.'),
    results: z.array(fileReference(vocabulary?.files)).describe('References found; may be empty.'),
    confidenceScore: unitInterval('Confidence in the findings, 0.0 to 1.0.'),
    summary: nonBlank('Summary of the findings.'),
  });
}
