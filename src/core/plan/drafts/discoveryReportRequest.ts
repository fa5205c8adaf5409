import { dedupeArray, isObject, objectsAt, type JsonObject } from '../../llm/replyNormalizing';
import { discoveryReportSchema } from '../schemas/discovery';
import { draftRequest } from './draftRequest';
import {
  dropMissingPaths,
  normalizeCrossLinks,
  normalizeDiagram,
  normalizeFileReferences,
  normalizeTagTargets,
} from './findingsNormalizing';
import { dropItems, dropKeys, idsOf, renameDuplicateIds, textAt, textsAt } from './normalizing';

/**
 * Requests built for a set of files, by that set: a stage's agents cite the same workspace files (one set, while
 * they fit one enum), and building and converting the schema again for each would sit on their critical path.
 */
const built = new WeakMap<ReadonlySet<string>, ReturnType<typeof buildRequest>>();

/**
 * The discovery report request for a workspace whose visible files are `files`. Its fixes: references only to existing
 * files, ranges in order, finding ids distinct, diagram edges between existing nodes, links and tags citing existing
 * findings, scores only for referenced files (derived from the references when absent: they are not asked for),
 * queries expecting existing files.
 */
export function discoveryReportRequest(files: ReadonlySet<string>) {
  const known = built.get(files);
  if (known) return known;
  const request = buildRequest(files);
  built.set(files, request);
  return request;
}

function buildRequest(files: ReadonlySet<string>) {
  return draftRequest(discoveryReportSchema(files), (reply, note) => {
    normalizeFileReferences(reply, 'fileReferences', files, note);
    // The report's finding lists, in the order their ids are claimed.
    const lists = [
      { items: objectsAt(reply, 'fileReferences'), field: 'referenceId' },
      { items: objectsAt(reply, 'semanticTags'), field: 'tagId' },
      { items: objectsAt(reply, 'generatedQueries'), field: 'queryId' },
      { items: objectsAt(reply, 'diagrams'), field: 'diagramId' },
    ];
    // One namespace for all finding kinds: a later repeat gets a fresh id, citations keep meaning the first.
    renameDuplicateIds(lists, 'finding id', note);
    for (const diagram of objectsAt(reply, 'diagrams')) normalizeDiagram(diagram, files, note);
    const ids = idsOf(lists);
    const known = new Set(ids);
    normalizeCrossLinks(reply, known, note);
    normalizeTagTargets(objectsAt(reply, 'semanticTags'), known, ids[0], note);
    for (const query of objectsAt(reply, 'generatedQueries')) {
      dropMissingPaths(query, 'expectedResultPaths', files, note);
      dropKeys(
        query,
        'groundTruthRelevance',
        path => files.has(path),
        'relevance of',
        'not a workspace file it may cite',
        note,
      );
    }
    dropItems(
      reply,
      'generatedQueries',
      query =>
        !isObject(query) || !Array.isArray(query['expectedResultPaths']) || query['expectedResultPaths'].length > 0,
      query => `dropped query "${String(textAt(query, 'queryId'))}": none of its expected files exists`,
      note,
    );
    // Not asked (the schema sent leaves it out): each cited file's best reference score. A reply that gives it keeps it.
    if (reply['relevanceScores'] === undefined)
      reply['relevanceScores'] = bestScores(objectsAt(reply, 'fileReferences'));
    const referenced = new Set(textsAt(reply, 'fileReferences', 'filePath'));
    dropKeys(
      reply,
      'relevanceScores',
      path => referenced.has(path),
      'relevance score of',
      'not a file of fileReferences',
      note,
    );
    dedupeArray(reply, 'keyPatterns', undefined, 'key pattern', note);
  });
}

/** Each cited file's highest relevanceScore among `references` (the report's relevanceScores, derived). */
function bestScores(references: readonly JsonObject[]): JsonObject {
  const best: Record<string, number> = {};
  for (const reference of references) {
    const path = reference['filePath'];
    const score = reference['relevanceScore'];
    if (typeof path !== 'string' || typeof score !== 'number') continue;
    best[path] = Math.max(score, best[path] ?? score);
  }
  return best;
}
