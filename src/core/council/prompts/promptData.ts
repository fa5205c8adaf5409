import type { AttachedItem } from '../../session/attachedItem';
import type { Confidence, PersonaContribution } from './replies';

/**
 * The plain data the council's prompts are rendered from. Structural subsets of the
 * session and persona models, so callers pass their own objects without mapping.
 */

/** Who sits on the council, as the clarify, moderator and synthesis prompts list them. */
export interface PersonaBrief {
  readonly name: string;
  readonly role: string;
  readonly expertise: readonly string[];
}

/** Everything a persona's own turn needs to speak in its voice. */
export interface PersonaVoice extends PersonaBrief {
  /** The persona file's markdown body. */
  readonly instructions: string;
  readonly tone: string;
  readonly cognitiveMode: 'divergent' | 'convergent';
}

/** A clarifying question the user answered. */
export interface AnsweredQuestion {
  readonly question: string;
  readonly answer: string;
}

/** What the council assumed for a skipped question. */
export interface AssumptionNote {
  readonly assumption: string;
  readonly rationale?: string;
  /** The skipped question it stands in for. */
  readonly question?: string;
}

/** What the user told the council: the request plus everything clarification produced. */
export interface ClarifiedRequest {
  readonly request: string;
  readonly answers: readonly AnsweredQuestion[];
  readonly assumptions: readonly AssumptionNote[];
  /** Files, selections and tool results the user attached; fenced as data, pruned first. */
  readonly attached?: readonly AttachedItem[];
  /** The team's earlier decision records bearing on the request, as fenced prompt text (see precedentMessage). */
  readonly precedent?: string;
  /** The same records as a short list (number, title, status), for later cycles, where the full text is not resent. */
  readonly precedentList?: string;
}

/** One persona's contribution, attributed. */
export type AttributedContribution = Omit<PersonaContribution, 'confidence'> & {
  readonly persona: string;
  /** Absent in sessions recorded before contributions stated it. */
  readonly confidence?: Confidence;
  /** From cycle 2: the name of the persona whose position this one backs (its own included). */
  readonly vote?: string;
};

/** One finished debate cycle: every persona's contribution and the moderator's reading of it. */
export interface DebateCycleRecord {
  /** 1-based. */
  readonly cycle: number;
  readonly contributions: readonly AttributedContribution[];
  /** The moderator's resolution summary; absent for a cycle not yet moderated. */
  readonly resolutionSummary?: string;
  readonly openDisagreements?: readonly string[];
}
