import { z } from 'zod';
import { dedupeArray, isObject, objectsAt } from '../../llm/replyNormalizing';
import { nonBlank, unitInterval } from '../schemas/common';
import {
  CrossLink,
  DiagramEdge,
  DiagramNode,
  DiagramRepresentation,
  DiscoveryReportDraft,
  FileReference,
  GeneratedQuery,
  MIN_QUERIES_PER_REPORT,
  MIN_TAGS_PER_REPORT,
  SemanticTag,
} from '../schemas/discovery';
import type { DraftRequest } from './draftRequest';
import {
  dropMissingPaths,
  normalizeCrossLinks,
  normalizeDiagram,
  normalizeFileReferences,
  normalizeTagTargets,
} from './findingsNormalizing';
import { dropItems, dropKeys, idsOf, renameDuplicateIds, textAt, type IdGroup, type Note } from './normalizing';
import { distinctItems, existingFile, lineNumber, recordKeyedBy } from './requestEnums';

/** A file reference into one of `files`, with bounded line numbers. */
export function fileReferenceFor(files: readonly string[]) {
  return FileReference.safeExtend({
    filePath: existingFile(files, 'File the reference points into; an existing workspace file.'),
    startLine: lineNumber('First line, 1-based.'),
    endLine: lineNumber('Last line, inclusive; not before startLine.'),
  }).describe('A location in the codebase.');
}

/** A diagram whose node files are workspace files. */
export function diagramFor(files: readonly string[]) {
  return DiagramRepresentation.safeExtend({
    nodes: z
      .array(
        DiagramNode.safeExtend({
          filePath: existingFile(files, 'File the node stands for, if any; an existing workspace file.').optional(),
        }),
      )
      .min(1)
      .describe('Nodes; at least one, each nodeId different.'),
    edges: z
      .array(
        DiagramEdge.safeExtend({
          fromNodeId: nonBlank('Id of the start node; a nodeId of this diagram.'),
          toNodeId: nonBlank('Id of the end node; a nodeId of this diagram.'),
        }),
      )
      .describe('Edges between nodes of this diagram; may be empty.'),
  }).describe('An architectural diagram.');
}

/** Relevance per existing file (keys limited to `files`). */
function scoresFor(files: readonly string[], description: string) {
  return recordKeyedBy(files, unitInterval('Relevance 0.0 to 1.0.'), `${description} Keys are workspace files.`);
}

const FINDING_ID = 'Finding ids (referenceId, tagId, queryId, diagramId) are all different from each other.';

/** The discovery report schema for this workspace: every cited path is one of `files`. */
function discoveryReportSchema(files: readonly string[]): z.ZodType<DiscoveryReportDraft> {
  return DiscoveryReportDraft.safeExtend({
    fileReferences: z
      .array(
        fileReferenceFor(files).safeExtend({
          referenceId: nonBlank(`Id of this reference, e.g. "ref-1"; tags and links cite it. ${FINDING_ID}`),
        }),
      )
      .describe('Code locations that matter; referenceIds unique.'),
    crossLinks: z
      .array(
        CrossLink.safeExtend({
          sourceReferenceId: nonBlank(
            'Id of the source finding: a referenceId, tagId, queryId or diagramId of this report.',
          ),
          targetReferenceId: nonBlank('Id of the target finding of this report; different from the source.'),
        }),
      )
      .describe('Relationships between findings of this report; linkIds unique.'),
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
        GeneratedQuery.safeExtend({
          queryId: nonBlank(`Id of this query. ${FINDING_ID}`),
          expectedResultPaths: distinctItems(
            existingFile(files, 'An expected result file.'),
            'Files a good search returns.',
          ).min(1),
          groundTruthRelevance: scoresFor(files, 'How relevant each file is to the query.'),
        }),
      )
      .min(MIN_QUERIES_PER_REPORT)
      .describe(`At least ${MIN_QUERIES_PER_REPORT} retrieval queries; queryIds unique.`),
    diagrams: z
      .array(diagramFor(files).safeExtend({ diagramId: nonBlank(`Id of the diagram. ${FINDING_ID}`) }))
      .describe('Architectural diagrams; may be empty.'),
    relevanceScores: scoresFor(
      files,
      'Relevance of each referenced file to the goal; only files cited in fileReferences.',
    ),
  }).describe('What a discovery agent found about its part of the codebase.');
}

/** The report's finding lists, in the order their ids are claimed. */
function findingLists(report: Record<string, unknown>): IdGroup[] {
  return [
    { items: objectsAt(report, 'fileReferences'), field: 'referenceId' },
    { items: objectsAt(report, 'semanticTags'), field: 'tagId' },
    { items: objectsAt(report, 'generatedQueries'), field: 'queryId' },
    { items: objectsAt(report, 'diagrams'), field: 'diagramId' },
  ];
}

/**
 * Deterministic fixes to a discovery report: references only to existing files, ranges in order, finding ids
 * distinct, diagram edges between existing nodes, links and tags citing existing findings, scores only for
 * referenced files, queries expecting existing files.
 */
function normalizeDiscoveryReport(files: ReadonlySet<string>): (reply: unknown, note: Note) => unknown {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    normalizeFileReferences(reply, 'fileReferences', files, note);
    const lists = findingLists(reply);
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
    const referenced = new Set(
      objectsAt(reply, 'fileReferences').flatMap(ref => (typeof ref['filePath'] === 'string' ? [ref['filePath']] : [])),
    );
    dropKeys(
      reply,
      'relevanceScores',
      path => referenced.has(path),
      'relevance score of',
      'not a file of fileReferences',
      note,
    );
    dedupeArray(reply, 'keyPatterns', undefined, 'key pattern', note);
    return reply;
  };
}

/** The discovery report request for a workspace whose visible files are `files`. */
export function discoveryReportRequest(files: ReadonlySet<string>): DraftRequest<DiscoveryReportDraft> {
  return { schema: discoveryReportSchema([...files].sort()), normalize: normalizeDiscoveryReport(files) };
}
