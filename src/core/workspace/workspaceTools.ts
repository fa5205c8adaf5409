import { z } from 'zod';
import type { CancellationSignal, ToolDefinition } from '../llm/languageModel';
import { jsonSchemaOf } from '../llm/structuredOutput';
import { delimitUntrusted } from '../llm/dataFence';
import { isIgnoredPath, looksBinary } from './pathFilter';
import { isVisibleFile, type WorkspaceIndex } from './workspaceIndex';
import type { WorkspaceReader } from './workspaceReader';
import { describeIssues } from '../zodIssues';

/** Size bounds of tool results. */
export interface WorkspaceToolLimits {
  /** Most characters one read returns. */
  readonly maxReadChars: number;
  /** Most lines one read returns. */
  readonly maxReadLines: number;
  /** Most files or matches one call returns. */
  readonly maxResults: number;
  /** Longest matched line shown by a search. */
  readonly maxMatchChars: number;
}

/** Defaults: a read is at most ~3k tokens, a listing or search at most 100 lines. */
export const DEFAULT_WORKSPACE_TOOL_LIMITS: WorkspaceToolLimits = {
  maxReadChars: 12_000,
  maxReadLines: 400,
  maxResults: 100,
  maxMatchChars: 200,
};

/**
 * The optional `limit` of a tool that returns a list: how many entries the model wants at most. Its name and bounds
 * say it; a description would be billed with every exploring request.
 */
function resultLimit() {
  return z.number().int().min(1).max(DEFAULT_WORKSPACE_TOOL_LIMITS.maxResults).optional();
}

/** Input of `list_files`. */
const ListFilesInput = z.object({
  glob: z.string().min(1).max(200).optional().describe('e.g. "src/**/*.ts"; all files when absent.'),
  limit: resultLimit(),
});

/** Input of `read_file_range`. */
const ReadFileRangeInput = z
  .object({
    path: z.string().min(1).describe('e.g. src/app.ts.'),
    startLine: z.number().int().min(1).describe('1-based.'),
    endLine: z.number().int().min(1).describe('Inclusive.'),
  })
  .refine(value => value.endLine >= value.startLine, { message: 'endLine must be >= startLine', path: ['endLine'] });

/** Input of `search_text`. */
const SearchTextInput = z.object({
  query: z.string().trim().min(2).max(200),
  limit: resultLimit(),
});

/** What a tool needs to run: the reader, what may be seen, and the bounds. */
export interface WorkspaceToolRuntime {
  readonly reader: WorkspaceReader;
  readonly index: WorkspaceIndex;
  readonly limits: WorkspaceToolLimits;
  readonly token?: CancellationSignal;
  /** Every path a call read or matched is added here, and every path it only listed to `listed`. */
  readonly seen?: Set<string>;
  readonly listed?: Set<string>;
}

/** A read-only workspace tool: its definition (JSON Schema from zod) and how to run it. */
export interface WorkspaceTool {
  readonly definition: ToolDefinition;
  /** Runs the call; the text is what the model gets back (file data fenced as untrusted). */
  invoke(input: unknown, runtime: WorkspaceToolRuntime): Promise<string>;
}

function hidden(path: string, runtime: WorkspaceToolRuntime): boolean {
  return isIgnoredPath(path) || looksBinary(path) || runtime.index.hiddenPaths.has(path);
}

/**
 * The entries a listing tool shows: at most what the call asked for, within the runtime's bound. The reader is asked
 * for twice as many, so dropping hidden entries still leaves enough; `more` says whether some were left out.
 */
async function shownEntries<T>(
  input: { readonly limit?: number },
  runtime: WorkspaceToolRuntime,
  fetch: (count: number) => Promise<readonly T[]>,
  visible: (entry: T) => boolean,
): Promise<{ readonly entries: readonly T[]; readonly more: boolean }> {
  const limit = Math.min(input.limit ?? runtime.limits.maxResults, runtime.limits.maxResults);
  const found = (await fetch(limit * 2)).filter(visible);
  return { entries: found.slice(0, limit), more: found.length > limit };
}

function tool<S extends z.ZodType>(
  name: string,
  description: string,
  schema: S,
  run: (input: z.output<S>, runtime: WorkspaceToolRuntime) => Promise<string>,
): WorkspaceTool {
  return {
    definition: { name, description, inputSchema: jsonSchemaOf(schema) },
    async invoke(input, runtime) {
      const data = input ?? {};
      const parsed = schema.safeParse(data);
      if (!parsed.success)
        return `Error: invalid input for ${name}: ${describeIssues(parsed.error.issues, '(root)', { schema, data }).join('; ')}`;
      return run(parsed.data, runtime);
    },
  };
}

const listFiles = tool(
  'list_files',
  'List workspace files, optionally by glob (no dependency, VCS, build or binary files).',
  ListFilesInput,
  async (input, runtime) => {
    const { entries: shown, more } = await shownEntries(
      input,
      runtime,
      count => runtime.reader.listFiles(input.glob, count, runtime.token),
      file => isVisibleFile(file) && !runtime.index.hiddenPaths.has(file.path),
    );
    if (shown.length === 0) return 'No files matched.';
    for (const file of shown) runtime.listed?.add(file.path);
    return delimitUntrusted(
      'workspace:list_files',
      shown.map(file => `${file.path} (${file.sizeBytes} bytes)`).join('\n') +
        (more ? `\n(more files matched; narrow the glob)` : ''),
    );
  },
);

const readFileRange = tool(
  'read_file_range',
  'Read lines of a workspace file; a long range is cut, read on from there.',
  ReadFileRangeInput,
  async (input, runtime) => {
    if (hidden(input.path, runtime)) return `Error: ${input.path} is ignored or binary and cannot be read.`;
    const endLine = Math.min(input.endLine, input.startLine + runtime.limits.maxReadLines - 1);
    const range = await runtime.reader.readRange(input.path, input.startLine, endLine, runtime.token);
    if (range === undefined) return `Error: ${input.path} does not exist.`;
    if (looksBinary(range.path, range.text)) return `Error: ${input.path} is binary and cannot be read.`;
    const lines: string[] = [];
    let used = 0;
    let lastLine = range.startLine - 1;
    for (const [offset, text] of range.text.split('\n').entries()) {
      const line = `${range.startLine + offset}: ${text}`;
      if (used + line.length > runtime.limits.maxReadChars) break;
      lines.push(line);
      used += line.length + 1;
      lastLine = range.startLine + offset;
    }
    runtime.seen?.add(range.path);
    const header = `${range.path} lines ${range.startLine}-${lastLine} of ${range.totalLines}`;
    const cut =
      lastLine < input.endLine && lastLine < range.totalLines
        ? `\n(cut at line ${lastLine}; read on from ${lastLine + 1})`
        : '';
    return delimitUntrusted('workspace:read_file_range', `${header}\n${lines.join('\n')}`) + cut;
  },
);

const searchText = tool(
  'search_text',
  'Find lines containing a text (literal, case-insensitive) in workspace files.',
  SearchTextInput,
  async (input, runtime) => {
    const { entries: matches } = await shownEntries(
      input,
      runtime,
      count => runtime.reader.searchText(input.query, count, runtime.token),
      match => !hidden(match.path, runtime) && !looksBinary(match.path, match.text),
    );
    if (matches.length === 0) return `No matches for "${input.query}".`;
    for (const match of matches) runtime.seen?.add(match.path);
    const lines = matches.map(
      match => `${match.path}:${match.line}: ${match.text.trim().slice(0, runtime.limits.maxMatchChars)}`,
    );
    return delimitUntrusted('workspace:search_text', lines.join('\n'));
  },
);

/** The only tools discovery and ticket agents are offered; none of them can change anything. */
export const WORKSPACE_TOOLS: readonly WorkspaceTool[] = [listFiles, readFileRange, searchText];

/** Names of the read-only workspace tools. */
export const WORKSPACE_TOOL_NAMES: readonly string[] = WORKSPACE_TOOLS.map(t => t.definition.name);
