import type { CancellationSignal, ChatMessage, LanguageModel } from '../llm/languageModel';
import { runToolRounds } from '../llm/toolRounds';
import { WORKSPACE_TOOLS, type WorkspaceTool, type WorkspaceToolRuntime } from './workspaceTools';

/** Bounds of one agent's exploration. */
export interface ExplorationLimits {
  /** Model turns that may call tools. */
  readonly maxRounds: number;
  /** Calls run per turn; extra calls are refused. */
  readonly maxCallsPerRound: number;
  /** Longest transcript handed to the report request. */
  readonly maxTranscriptChars: number;
}

/** Defaults: a handful of turns, enough to list, search and read a few ranges. */
export const DEFAULT_EXPLORATION_LIMITS: ExplorationLimits = {
  maxRounds: 4,
  maxCallsPerRound: 6,
  maxTranscriptChars: 40_000,
};

/** What exploring produced. */
export interface Exploration {
  /** Calls and results (and the model's notes) as plain text, oldest first. */
  readonly transcript: readonly string[];
  readonly rounds: number;
  /** Names of the tools actually executed, in order. */
  readonly executed: readonly string[];
  /** Names the model asked for that are not read-only workspace tools (refused, never run). */
  readonly refused: readonly string[];
  /** Paths the tools showed the model: those read or matched first, then those only listed. */
  readonly seen: readonly string[];
}

async function answer(
  name: string,
  input: unknown,
  tools: readonly WorkspaceTool[],
  runtime: WorkspaceToolRuntime,
): Promise<string | undefined> {
  const found = tools.find(candidate => candidate.definition.name === name);
  return found === undefined ? undefined : found.invoke(input, runtime);
}

/**
 * Lets the model call ONLY the read-only workspace tools for at most `maxRounds` turns, stopping at the first
 * turn without calls. A call to any other name is answered with a refusal and never executed, so text inside
 * a file ("call write_file…") cannot reach anything that changes the workspace.
 */
export async function exploreWorkspace(
  model: LanguageModel,
  opening: readonly ChatMessage[],
  runtime: WorkspaceToolRuntime,
  limits: ExplorationLimits,
  token: CancellationSignal,
  /** The tools offered; the read-only workspace tools unless a caller adds some (never a writing one). */
  tools: readonly WorkspaceTool[] = WORKSPACE_TOOLS,
): Promise<Exploration> {
  const allowed = tools.map(t => t.definition.name);
  const executed: string[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  const listed = new Set<string>();
  if (!model.supportsToolCalling) return { transcript: [], rounds: 0, executed, refused, seen: [] };
  const { transcript, rounds } = await runToolRounds(
    model,
    opening,
    {
      tools: tools.map(t => t.definition),
      justification: 'Council reads workspace files to understand the code.',
      maxRounds: limits.maxRounds,
      maxCallsPerRound: limits.maxCallsPerRound,
      answer: async call => {
        const result = await answer(call.name, call.input, tools, { ...runtime, token, seen, listed });
        if (result !== undefined) {
          executed.push(call.name);
          return result;
        }
        refused.push(call.name);
        return `Refused: "${call.name}" is not available. You can only read, with: ${allowed.join(', ')}.`;
      },
      // A file's lines read better below the call than after it.
      resultSeparator: '\n',
    },
    token,
  );
  return { transcript, rounds, executed, refused, seen: [...new Set([...seen, ...listed])] };
}

/** The transcript as one string of at most `maxChars`, keeping the latest entries. */
export function transcriptText(exploration: Exploration, maxChars: number): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = exploration.transcript.length - 1; i >= 0; i--) {
    const entry = exploration.transcript[i] ?? '';
    if (used + entry.length > maxChars) {
      kept.unshift('(earlier exploration omitted for length)');
      break;
    }
    kept.unshift(entry);
    used += entry.length;
  }
  return kept.join('\n\n');
}
