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
    moduleName: nonBlank('Unique in the code map.'),
    rootPath:
      files === undefined
        ? existingFile(undefined, 'Folder or file at the root of the module.')
        : oneOf(
            [...foldersOf(files), ...[...files].sort()],
            'Folder or file at its root.',
            'Must be an existing workspace folder or file.',
          ),
    summary: nonBlank('What it does and how it fits in.'),
    keyFiles: distinctItems(existingFile(files), 'The files to read first.'),
  });
  return z
    .object({
      modules: z.array(module).min(1),
      deduplicatedReferences: z
        .array(fileReference(files))
        .min(1)
        .describe('Merged from all reports; each location (file and lines) once.'),
      unifiedDiagram: diagram(files),
      mergedTags: z.array(SemanticTag).min(1),
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
    .describe('The codebase as all reports saw it.');
}

/** How urgent a recommendation is. */
const RecommendationPriority = z.enum(['critical', 'high', 'medium', 'low']);

/** An actionable recommendation for the planning stage. */
export function recommendation(vocabulary?: DiscoveryCollectorVocabulary) {
  return z.object({
    recommendationId: nonBlank('Unique.'),
    title: nonBlank(),
    description: nonBlank(),
    priority: RecommendationPriority,
    supportingDiscoveryIds: distinctItems(
      inputIdOf(vocabulary?.inputIds),
      'The reports behind it; each also listed in inputs.',
    ).min(1),
    relatedFilePaths: distinctItems(existingFile(vocabulary?.files)),
    estimatedImpact: nonBlank().optional(),
  });
}
/** An actionable recommendation for the planning stage. */
export type Recommendation = z.infer<ReturnType<typeof recommendation>>;

/** What was found for one generated query. */
export function queryFindings(vocabulary?: DiscoveryCollectorVocabulary) {
  return z.object({
    queryId: oneOf(vocabulary?.queryIds, 'The generated query answered; each once.', 'Each query once.'),
    originalQuery: nonBlank('Its text.'),
    results: z.array(fileReference(vocabulary?.files)),
    confidenceScore: unitInterval(),
    summary: nonBlank(),
  });
}
