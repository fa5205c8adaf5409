import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node as YamlNode } from 'yaml';
import type { Path } from '../../zodIssues';
import type { WorkflowIssue } from './workflowDefinition';

// What a workflow file's problems are made of: the field path, where that field is in the file, and the collector
// every check adds to.

/** The field of an issue about the YAML text where no field could be named. */
export const YAML_FIELD = '(yaml)';
/** The field of an issue about the whole file. */
export const FILE_FIELD = '(file)';

/** `['phases', 1, 'behavior']` -> `phases[1].behavior`. */
export function fieldOf(path: Path): string {
  let out = '';
  for (const segment of path)
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? FILE_FIELD : out;
}

/** Collects issues, each placed at its field: the line and column of its path, or of its nearest existing parent. */
export class Issues {
  readonly all: WorkflowIssue[] = [];
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  add(path: Path, message: string): void {
    this.all.push({ field: fieldOf(path), ...this.locate(path), message });
  }

  /** The position of the key of `path`'s last field (or of the list item), else of the deepest part that exists. */
  locate(path: Path): { line: number; column: number } | undefined {
    let node: unknown = this.doc.contents;
    let offset: number | undefined = rangeStart(node);
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(item => (isScalar(item.key) ? item.key.value : item.key) === segment);
        if (!pair) break;
        offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item: unknown = node.items[segment];
        if (item === undefined) break;
        offset = rangeStart(item) ?? offset;
        node = item;
      } else {
        break;
      }
    }
    if (offset === undefined) return undefined;
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as YamlNode | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** In file order (issues without a line first), keeping the order found among issues on the same line. */
export function sortedIssues(all: readonly WorkflowIssue[]): WorkflowIssue[] {
  return all
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => (a.issue.line ?? 0) - (b.issue.line ?? 0) || a.order - b.order)
    .map(({ issue }) => issue);
}
