import { z } from 'zod';
import type { ToolDefinition } from '../../../llm/languageModel';
import { jsonSchemaOf } from '../../../llm/structuredOutput';
import type { HistoryNote, HistorySnapshot } from '../historyItem';
import { addNote, AddNoteRequestSchema, type AddNoteRequest } from './addNote';
import { getHistoryItem, HistoryItemRequestSchema } from './getHistoryItem';
import { HistoryListingRequestSchema, listHistory } from './listHistory';
import { HistorySearchRequestSchema, searchHistory } from './searchHistory';
import { HistoryTraceRequestSchema, traceHistory } from './traceHistory';
import { describeIssues } from '../../../zodIssues';

/** A history tool a model can call: its definition (JSON Schema from zod) and how to run it against a snapshot. */
export interface HistoryTool {
  readonly definition: ToolDefinition;
  /** The call's result as the model reads it: the response's JSON, or why the call's input was refused. */
  invoke(input: unknown, history: HistorySnapshot): string;
}

function readTool<S extends z.ZodType>(
  name: string,
  description: string,
  schema: S,
  run: (history: HistorySnapshot, request: z.output<S>) => unknown,
): HistoryTool {
  return {
    definition: { name, description, inputSchema: jsonSchemaOf(schema) },
    invoke(input, history) {
      const data = input ?? {};
      const parsed = schema.safeParse(data);
      if (!parsed.success)
        return `Invalid input for ${name}: ${describeIssues(parsed.error.issues, '(root)', { schema, data }).join('; ')}`;
      return JSON.stringify(run(history, parsed.data));
    },
  };
}

/** The read-only history tools (trace, list, search, item); none of them can change history. */
export const READ_ONLY_HISTORY_TOOLS: readonly HistoryTool[] = [
  readTool(
    'history_trace',
    'Items of one agent type, agent instance or action, or the chain of invocations behind a context id, oldest first.',
    HistoryTraceRequestSchema,
    traceHistory,
  ),
  readTool(
    'history_list',
    'One page of the run history, oldest first, optionally within a time window.',
    HistoryListingRequestSchema,
    listHistory,
  ),
  readTool(
    'history_search',
    'Items whose inputs, outputs or errors contain the query words, best matches first.',
    HistorySearchRequestSchema,
    searchHistory,
  ),
  readTool(
    'history_item',
    'One history item (with its notes), by id or by index.',
    HistoryItemRequestSchema,
    getHistoryItem,
  ),
];

/**
 * The add-note tool (spec 001 NoteRequest): the one history tool that writes, and only a note beside the items; it
 * adds through `add`, so it is offered only where a run's history can take one.
 */
export function addNoteTool(add: (request: AddNoteRequest) => HistoryNote): HistoryTool {
  return readTool(
    'history_add_note',
    'Adds a note on history items for later readers (the items are not changed).',
    AddNoteRequestSchema,
    (history, request) => addNote(history, request, add),
  );
}
