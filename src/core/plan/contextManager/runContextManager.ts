import type { CancellationSignal, ChatMessage, LanguageModel, ToolCallPart } from '../../llm/languageModel';
import { runToolRounds } from '../../llm/toolRounds';
import { requestStructured } from '../../llm/structuredOutput';
import type { HistoryNote, HistorySnapshot } from '../history/historyItem';
import { addNoteTool, READ_ONLY_HISTORY_TOOLS, type HistoryTool } from '../history/tools/historyTools';
import type { AddNoteRequest } from '../history/tools/addNote';
import { clip, contextManagerPrompt, decisionRequest } from './contextManagerPrompt';
import type { ContextManagerRequest } from './contextManagerRequest';
import { normalizeRouting, routingSchemaFor, type ContextManagerRouting } from './routing';

/** Defaults that keep one context-manager run to a handful of model calls. */
const DEFAULT_CONTEXT_MANAGER_LIMITS = {
  /** Model turns that may call history tools. */
  maxRounds: 5,
  /** Calls run per turn; extra calls are answered with a refusal. */
  maxCallsPerRound: 8,
  /** Longest tool result sent back; longer ones are clipped with a hint to narrow the query. */
  maxResultChars: 4000,
  /** Most of the investigation's transcript the decision request carries (the latest part). */
  maxFindingsChars: 24_000,
};

/** Items shown inline to a model that cannot call tools. */
const INLINE_HISTORY_ITEMS = 20;

export interface ContextManagerRun {
  readonly model: LanguageModel;
  /** What is asked: the case, its evidence, and the destinations the decision may route to. */
  readonly request: ContextManagerRequest;
  readonly history: HistorySnapshot;
  readonly token: CancellationSignal;
  readonly limits?: Partial<typeof DEFAULT_CONTEXT_MANAGER_LIMITS>;
  /**
   * Adds a note on history items to the run's history (spec 001 HistoryNote); when given, the model is offered the
   * add-note tool beside the read-only ones.
   */
  readonly addNote?: (request: AddNoteRequest) => HistoryNote;
  /** Receives what normalization changed in the decision (for the run's progress report). */
  readonly onNormalized?: (changes: readonly string[]) => void;
}

/** One history tool call answered (an unknown tool or a refused input is answered, not thrown). */
function answerCall(
  call: ToolCallPart,
  tools: readonly HistoryTool[],
  history: HistorySnapshot,
  maxResultChars: number,
): string {
  const tool = tools.find(candidate => candidate.definition.name === call.name);
  if (!tool) return `Unknown tool "${call.name}". Available: ${tools.map(t => t.definition.name).join(', ')}.`;
  const text = tool.invoke(call.input, history);
  return text.length > maxResultChars ? `${clip(text, maxResultChars)} (truncated: narrow the query or page)` : text;
}

function findingsMessage(findings: readonly string[], maxChars: number): ChatMessage | undefined {
  const kept: string[] = [];
  let used = 0;
  for (let i = findings.length - 1; i >= 0; i--) {
    const finding = findings[i] ?? '';
    if (used + finding.length > maxChars) {
      kept.unshift('(earlier findings omitted for length)');
      break;
    }
    kept.unshift(finding);
    used += finding.length;
  }
  return kept.length === 0
    ? undefined
    : { role: 'user', content: ['What you found in the history:', ...kept].join('\n') };
}

/**
 * Runs the context manager for one request (a degenerate loop, an agent's own request, a collector's `proceed`): the model investigates the history through read-only tools
 * (bounded rounds), then gives a ContextManagerRouting through `requestStructured`, whose schema lists the known
 * agent types and item ids (enums); a cited item that does not exist is dropped before validation.
 * The investigation reaches the decision step as a plain-text transcript, so the decision request carries no
 * tool-call parts for tools it does not offer (some providers reject that).
 */
export async function runContextManager(run: ContextManagerRun): Promise<ContextManagerRouting> {
  const limits = { ...DEFAULT_CONTEXT_MANAGER_LIMITS, ...run.limits };
  const itemIds = new Set(run.history.items.map(item => item.itemId));
  const schema = routingSchemaFor(run.request.destinations, itemIds);
  const toolsAvailable = run.model.supportsToolCalling && limits.maxRounds > 0;
  // Notes added during the investigation are read back by the next history_item call.
  const notes = [...(run.history.notes ?? [])];
  const { addNote } = run;
  const tools = addNote
    ? [
        ...READ_ONLY_HISTORY_TOOLS,
        addNoteTool(request => {
          const note = addNote(request);
          notes.push(note);
          return note;
        }),
      ]
    : READ_ONLY_HISTORY_TOOLS;
  const opening = contextManagerPrompt(
    run.request,
    toolsAvailable ? undefined : run.history.items.slice(-INLINE_HISTORY_ITEMS),
  );
  // The model calls the history tools for at most `maxRounds` turns, stopping at a turn without calls.
  const investigation = toolsAvailable
    ? await runToolRounds(
        run.model,
        opening,
        {
          tools: tools.map(tool => tool.definition),
          justification: "Council reads the run history to rebuild an agent's context.",
          maxRounds: limits.maxRounds,
          maxCallsPerRound: limits.maxCallsPerRound,
          answer: call => answerCall(call, tools, { items: run.history.items, notes }, limits.maxResultChars),
          resultSeparator: ' ',
        },
        run.token,
      )
    : { transcript: [], exhausted: false };
  const findings = findingsMessage(investigation.transcript, limits.maxFindingsChars);
  return requestStructured(
    run.model,
    {
      schema,
      normalize: normalizeRouting(itemIds),
      ...(run.onNormalized === undefined ? {} : { onNormalized: run.onNormalized }),
      name: 'route_context',
      description: 'Route to exactly one agent type with a reconstructed context, or ask the user one question.',
      messages: [...opening, ...(findings ? [findings] : []), decisionRequest(investigation.exhausted)],
    },
    run.token,
  );
}
