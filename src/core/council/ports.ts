import type { Clock, IdSource } from '../clock';
import type { CancellationSignal, LanguageModel } from '../llm/languageModel';
import type { SpendingGovernor, SpendingLimits } from '../llm/spending/governor';
import type { LimitAdvice } from '../llm/spending/limitAdvice';
import type { PriceBook } from '../llm/spending/prices';
import type { PersonaContract } from '../personas/contract';
import type { SelectionDefaults } from '../personas/select';
import type { WorkspaceReader } from '../workspace/workspaceReader';
import type { StoredSession } from '../session/storedSession';
import type { DebateOutcome } from './debateOutcome';
import type { DebateProtocol } from './protocol';
import type { QuestionPosition } from './questionPosition';
import type { ClarificationQuestion } from '../session/clarification';
import type { WorkspaceGrounding } from './workspaceGrounding';

/** Where a council turn writes what the user sees; the chat adapter maps it onto a ChatResponseStream. */
export interface CouncilOutput {
  /** A transient "working on it" line. */
  progress(message: string): void;
  /** Markdown the user reads. */
  markdown(text: string): void;
  /**
   * Markdown a person must not miss (the council, the per-cycle summary, the limit notice, the final answer):
   * the chat folds everything streamed before a response's last progress line, so the adapter shows these
   * after it, in order. Absent: plain `markdown`.
   */
  visible?(text: string): void;
  /**
   * No progress line follows in this turn (the final answer is about to stream): show what `visible` held back
   * now, and write later `visible` text straight away, so the streamed answer is not folded or reordered.
   */
  release?(): void;
  /**
   * The door shows the active clarifying question itself (a terminal prompt, once, in its own words). Absent: the
   * chat's question card (wording/markdown.ts questionCard), which points at the chat's buttons.
   */
  question?(question: ClarificationQuestion, position: QuestionPosition): void;
  /** A link to a workspace file (workspace-relative, "/"-separated path) a persona read and cites; optional for hosts without files. */
  anchor?(path: string): void;
}

/** The model a role runs on, and a note for the user when the preferred model was not available. */
export interface ModelChoice {
  readonly model: LanguageModel;
  /** e.g. "claude-sonnet-4 is not available; Security Expert uses GPT-4.1 (the chat's model)." */
  readonly note?: string;
}

/**
 * Models per role (settings `council.models.*`, a persona file's `model:`); absent: `CouncilDeps.model` for
 * everything. Never rejects: an unavailable model falls back to the chat's model with a note.
 */
export interface RoleModels {
  /** `seat`: the persona's place on the council (0-based), so seating by it is stable across cycles and turns. */
  forPersona(persona: PersonaContract, seat?: number): Promise<ModelChoice>;
  forSynthesis(): Promise<ModelChoice>;
}

/** Where the workspace keeps its last finished debates (the host's storage). */
/** Where the team's decision records are read from; the host gives it only in a trusted workspace. */
export interface DecisionRecordsSource {
  readonly reader: WorkspaceReader;
  /** `council.decisions.folder`; absent or empty: found from the repository. */
  readonly folder?: string;
}

export interface DebateHistoryStore {
  read(): readonly DebateOutcome[];
  remember(outcome: DebateOutcome): void | Promise<void>;
}

/** Everything a council turn needs from its surroundings. */
export interface CouncilDeps {
  /** The model the user picked (`request.model`), used for every call of the turn. */
  readonly model: LanguageModel;
  /** The persona registry's personas. */
  readonly personas: readonly PersonaContract[];
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly output: CouncilOutput;
  readonly token: CancellationSignal;
  readonly selectionDefaults?: SelectionDefaults;
  /** Receives what was fixed in a model's reply before it was accepted (e.g. a dropped duplicate), for the log. */
  readonly onNormalized?: (step: string, changes: readonly string[]) => void;
  /** Called after every recorded event, so a failure, a Stop or a reload mid-turn loses nothing. */
  readonly persist?: (stored: StoredSession) => void | Promise<void>;
  /** Read-only workspace access personas may use while drafting; absent in an untrusted workspace. */
  readonly workspace?: WorkspaceGrounding;
  /** The team's decision records, read for precedent when a session opens; absent in an untrusted workspace. */
  readonly decisions?: DecisionRecordsSource;
  /** How the council debates; default `economy`. */
  readonly protocol?: DebateProtocol;
  /**
   * What the session may spend over all its turns, the prices requests are counted at, and how this door says to
   * raise a limit (default: VS Code's settings); absent: no limits.
   */
  readonly spending?: { readonly limits: SpendingLimits; readonly prices: PriceBook; readonly advice?: LimitAdvice };
  /** Models per role; absent: `model` for every call. */
  readonly roleModels?: RoleModels;
  /**
   * The workspace's last finished debates (see `debateHistory.ts`): the expected figure follows them; each debate
   * that ends is remembered. Absent: the prior, nothing remembered.
   */
  readonly debateHistory?: DebateHistoryStore;
  /** The session's spending governor, set by `runCouncilTurn` (every model above is paid through it). */
  readonly governor?: SpendingGovernor;
}

/** Writes `text` where a person cannot miss it (see `CouncilOutput.visible`). */
export function showVisibly(output: CouncilOutput, text: string): void {
  if (output.visible) output.visible(text);
  else output.markdown(text);
}
