import type { CancellationSignal, ChatMessage, LanguageModel } from '../../llm/languageModel';
import { requestStructured } from '../../llm/structuredOutput';
import type { HistorySnapshot } from '../history/historyItem';
import { READ_ONLY_HISTORY_TOOLS } from '../history/tools/historyTools';
import { contextManagerPrompt, decisionRequest } from './contextManagerPrompt';
import type { DegenerateLoop } from './degenerateLoop';
import { routingSchemaFor, type ContextManagerRouting } from './routing';
import { normalizeRouting } from './routingNormalizing';
import { investigateHistory, type ToolLoopLimits } from './toolLoop';

/** Defaults that keep one context-manager run to a handful of model calls. */
export const DEFAULT_CONTEXT_MANAGER_LIMITS: ToolLoopLimits & { readonly maxFindingsChars: number } = {
  maxRounds: 5,
  maxCallsPerRound: 8,
  maxResultChars: 4000,
  maxFindingsChars: 24_000,
};

/** Items shown inline to a model that cannot call tools. */
const INLINE_HISTORY_ITEMS = 20;

/** Inputs of one context-manager run. */
export interface ContextManagerRun {
  readonly model: LanguageModel;
  readonly loop: DegenerateLoop;
  readonly history: HistorySnapshot;
  /** Agent types the decision may route to. */
  readonly agents: readonly string[];
  readonly token: CancellationSignal;
  readonly goal?: string;
  readonly limits?: Partial<typeof DEFAULT_CONTEXT_MANAGER_LIMITS>;
  /** Receives what normalization changed in the decision (for the run's progress report). */
  readonly onNormalized?: (changes: readonly string[]) => void;
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
 * Runs the context manager for a degenerate loop: the model investigates the history through read-only tools
 * (bounded rounds), then gives a ContextManagerRouting through `requestStructured`, whose schema lists the known
 * agent types and item ids (enums); a cited item that does not exist is dropped before validation.
 * The investigation reaches the decision step as a plain-text transcript, so the decision request carries no
 * tool-call parts for tools it does not offer (some providers reject that).
 */
export async function runContextManager(run: ContextManagerRun): Promise<ContextManagerRouting> {
  const limits = { ...DEFAULT_CONTEXT_MANAGER_LIMITS, ...run.limits };
  const itemIds = new Set(run.history.items.map(item => item.itemId));
  const schema = routingSchemaFor(run.agents, itemIds);
  const toolsAvailable = run.model.supportsToolCalling && limits.maxRounds > 0;
  const opening = contextManagerPrompt({
    loop: run.loop,
    agentTypes: run.agents,
    toolsAvailable,
    recentItems: run.history.items.slice(-INLINE_HISTORY_ITEMS),
    ...(run.goal === undefined ? {} : { goal: run.goal }),
  });
  const investigation = toolsAvailable
    ? await investigateHistory(run.model, opening, READ_ONLY_HISTORY_TOOLS, run.history, limits, run.token)
    : { findings: [], exhausted: false };
  const findings = findingsMessage(investigation.findings, limits.maxFindingsChars);
  return requestStructured(
    run.model,
    {
      schema,
      normalize: normalizeRouting(itemIds),
      ...(run.onNormalized === undefined ? {} : { onNormalized: run.onNormalized }),
      name: 'route_context',
      description:
        'Route the stuck run back to exactly one agent with a reconstructed context, or ask the user one question.',
      messages: [...opening, ...(findings ? [findings] : []), decisionRequest(investigation.exhausted)],
    },
    run.token,
  );
}
