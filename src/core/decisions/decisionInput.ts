/** What a council's final answer gives a record (filled by the door from the session). */
export interface DecisionInput {
  readonly question: string;
  /** Clarifying questions and the user's answers. */
  readonly answered: readonly { readonly question: string; readonly answer: string }[];
  /** The options the council named; the first is the chosen one when `chosen` is absent. */
  readonly options: readonly DecisionOption[];
  readonly chosen: string;
  /** The consolidated answer (the outcome's justification). */
  readonly answer: string;
  readonly vote: string;
  /** Combined confidence, 0..1. */
  readonly confidence: number;
  readonly consequences: readonly string[];
  /** The strongest dissent, verbatim, and who said it. */
  readonly dissent?: { readonly persona: string; readonly text: string };
  readonly assumptions: readonly string[];
  readonly sessionId: string;
  readonly personas: readonly string[];
  readonly model: string;
  /** Requests and tokens, as the governor counted them. */
  readonly cost: string;
  /** Earlier records the council considered, and whether it agreed. */
  readonly precedent?: readonly { readonly record: string; readonly agrees: boolean }[];
}

/** One option with the pros and cons as the personas argued them. */
export interface DecisionOption {
  readonly name: string;
  readonly pros: readonly { readonly persona: string; readonly text: string }[];
  readonly cons: readonly { readonly persona: string; readonly text: string }[];
}
