import { dedupeArray, isObject, objectsAt } from '../../llm/replyNormalizing';
import { discoveryCollectorSchema } from '../schemas/collectors';
import type { DiscoveryCollectorVocabulary } from '../schemas/discoveryFindings';
import type { DiscoveryReport } from '../schemas/discovery';
import { foldersOf } from '../schemas/vocabulary';
import { normalizeConsolidation } from './consolidationRequest';
import { draftRequest } from './draftRequest';
import { dropMissingPaths, normalizeDiagram, normalizeFileReferences } from './findingsNormalizing';
import { dropItems, dropUnknownStrings, objectAt, renameDuplicateIds, textAt, type Note, textsAt } from './normalizing';

/** Every file a discovery report cites: its references, diagram nodes, queries' expected results and scores. */
export function filesCitedBy(report: DiscoveryReport): string[] {
  return [
    ...report.fileReferences.map(ref => ref.filePath),
    ...report.diagrams.flatMap(diagram => diagram.nodes.flatMap(node => (node.filePath ? [node.filePath] : []))),
    ...report.generatedQueries.flatMap(query => [
      ...query.expectedResultPaths,
      ...Object.keys(query.groundTruthRelevance),
    ]),
    ...Object.keys(report.relevanceScores),
  ];
}

/** Code map fixes: modules once each, existing files, each location once, ids distinct, diagram edges between its nodes. */
function normalizeCodeMap(map: unknown, files: ReadonlySet<string>, note: Note): void {
  if (!isObject(map)) return;
  dedupeArray(map, 'modules', 'moduleName', 'module', note);
  const roots = new Set([...foldersOf(files), ...files]);
  dropItems(
    map,
    'modules',
    module => !isObject(module) || typeof module['rootPath'] !== 'string' || roots.has(module['rootPath']),
    module =>
      `dropped module "${String(textAt(module, 'moduleName'))}": its root "${String(textAt(module, 'rootPath'))}" is not in the workspace`,
    note,
  );
  for (const module of objectsAt(map, 'modules')) dropMissingPaths(module, 'keyFiles', files, note);
  normalizeFileReferences(map, 'deduplicatedReferences', files, note);
  const location = (ref: unknown): string | undefined =>
    isObject(ref) ? `${String(ref['filePath'])}:${String(ref['startLine'])}-${String(ref['endLine'])}` : undefined;
  const seen = new Set<string>();
  dropItems(
    map,
    'deduplicatedReferences',
    ref => {
      const key = location(ref);
      if (key === undefined) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
    ref => `dropped the repeated location ${String(location(ref))}`,
    note,
  );
  renameDuplicateIds([{ items: objectsAt(map, 'deduplicatedReferences'), field: 'referenceId' }], 'referenceId', note);
  normalizeDiagram(map['unifiedDiagram'], files, note);
  renameDuplicateIds([{ items: objectsAt(map, 'mergedTags'), field: 'tagId' }], 'tagId', note);
}

/**
 * The discovery collector request for this moment's inputs, agents and files; its fixes are the consolidation's, the
 * code map's, recommendations citing inputs and files that exist, and each query's findings once.
 */
export function discoveryCollectorRequest(vocabulary: DiscoveryCollectorVocabulary) {
  return draftRequest(discoveryCollectorSchema(vocabulary), (reply, note) => {
    normalizeConsolidation(reply, vocabulary, note);
    normalizeCodeMap(objectAt(reply, 'unifiedCodeMap'), vocabulary.files, note);
    const listed = new Set(textsAt(reply, 'inputs', 'inputContextId'));
    renameDuplicateIds(
      [{ items: objectsAt(reply, 'recommendations'), field: 'recommendationId' }],
      'recommendationId',
      note,
    );
    for (const recommendation of objectsAt(reply, 'recommendations')) {
      dedupeArray(recommendation, 'supportingDiscoveryIds', undefined, 'supporting report', note);
      dropUnknownStrings(recommendation, 'supportingDiscoveryIds', listed, 'supporting report (not in inputs)', note);
      dropMissingPaths(recommendation, 'relatedFilePaths', vocabulary.files, note);
    }
    dropItems(
      reply,
      'recommendations',
      rec =>
        !isObject(rec) || !Array.isArray(rec['supportingDiscoveryIds']) || rec['supportingDiscoveryIds'].length > 0,
      rec =>
        `dropped recommendation "${String(textAt(rec, 'recommendationId'))}": none of its supporting reports is an input`,
      note,
    );
    dedupeArray(reply, 'queryFindings', 'queryId', 'findings of query', note);
    for (const findings of objectsAt(reply, 'queryFindings'))
      normalizeFileReferences(findings, 'results', vocabulary.files, note);
  });
}
