import { dedupeArray, isObject, objectsAt, orderRange, type JsonObject } from '../../llm/replyNormalizing';
import { dropItems, dropUnknownStrings, textAt, type Note, textsAt } from './normalizing';

/** File references: only to files it may cite (a cited file must exist), ranges in order. */
export function normalizeFileReferences(owner: unknown, key: string, files: ReadonlySet<string>, note: Note): void {
  dropItems(
    owner,
    key,
    ref => !isObject(ref) || typeof ref['filePath'] !== 'string' || files.has(ref['filePath']),
    ref => `dropped the reference to "${String(textAt(ref, 'filePath'))}", which is not a workspace file it may cite`,
    note,
  );
  for (const ref of objectsAt(owner, key))
    orderRange(ref, 'startLine', 'endLine', note, `of ${String(ref['filePath'])}`);
}

/** A diagram: node ids distinct (first wins), node files that exist, edges only between its nodes. */
export function normalizeDiagram(diagram: unknown, files: ReadonlySet<string>, note: Note): void {
  if (!isObject(diagram)) return;
  const label = `diagram "${String(diagram['diagramId'] ?? diagram['title'])}"`;
  dedupeArray(diagram, 'nodes', 'nodeId', `node of ${label}`, note);
  for (const node of objectsAt(diagram, 'nodes')) {
    if (typeof node['filePath'] === 'string' && !files.has(node['filePath'])) {
      note(
        `dropped the file "${node['filePath']}" of node "${String(node['nodeId'])}" of ${label}: not a workspace file it may cite`,
      );
      delete node['filePath'];
    }
  }
  const nodeIds = new Set(textsAt(diagram, 'nodes', 'nodeId'));
  dropItems(
    diagram,
    'edges',
    edge =>
      !isObject(edge) || [edge['fromNodeId'], edge['toNodeId']].every(id => typeof id !== 'string' || nodeIds.has(id)),
    edge =>
      `dropped the edge ${String(textAt(edge, 'fromNodeId'))} -> ${String(textAt(edge, 'toNodeId'))} of ${label}: it names a node the diagram does not have`,
    note,
  );
}

/**
 * Tags cite known findings only; a tag left with no target is applied to `fallback` (the report's first
 * finding) rather than dropped, so the minimum number of tags still holds.
 */
export function normalizeTagTargets(
  tags: readonly JsonObject[],
  known: ReadonlySet<string>,
  fallback: string | undefined,
  note: Note,
): void {
  for (const tag of tags) {
    const label = `target of tag "${String(tag['tagId'])}"`;
    dedupeArray(tag, 'appliedTo', undefined, label, note);
    dropUnknownStrings(tag, 'appliedTo', known, label, note);
    if (Array.isArray(tag['appliedTo']) && tag['appliedTo'].length === 0 && fallback !== undefined) {
      tag['appliedTo'] = [fallback];
      note(`applied tag "${String(tag['tagId'])}", left without a known target, to "${fallback}"`);
    }
  }
}

/** Cross links: ids distinct (first wins), both ends known findings, two different ends. */
export function normalizeCrossLinks(owner: unknown, known: ReadonlySet<string>, note: Note): void {
  dedupeArray(owner, 'crossLinks', 'linkId', 'cross link', note);
  dropItems(
    owner,
    'crossLinks',
    link => {
      if (!isObject(link)) return true;
      const [from, to] = [link['sourceReferenceId'], link['targetReferenceId']];
      if (typeof from !== 'string' || typeof to !== 'string') return true;
      return from !== to && known.has(from) && known.has(to);
    },
    link =>
      `dropped the cross link "${String(textAt(link, 'linkId'))}": it must join two different findings of the report`,
    note,
  );
}

/** Drops the paths of the string array at `owner[key]` that are not workspace files. */
export function dropMissingPaths(owner: unknown, key: string, files: ReadonlySet<string>, note: Note): void {
  dedupeArray(owner, key, undefined, 'path', note);
  dropUnknownStrings(owner, key, files, 'file', note);
}
