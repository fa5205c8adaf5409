import { z } from 'zod';

/**
 * What the council's model calls must return. Each schema is both the validator and, via
 * `z.toJSONSchema`, what the model is asked to fill in — so the `.describe()` texts are
 * written for the model.
 */

const sentence = z.string().trim().min(1);

/** The kinds of ambiguity a clarifying question can resolve. */
export const AMBIGUITY_KINDS = [
  'scope',
  'constraints',
  'priority',
  'timeline',
  'audience',
  'environment',
  'quality',
  'other',
] as const;

export const TargetAmbiguitySchema = z
  .enum(AMBIGUITY_KINDS)
  .describe(
    'What the question clarifies: scope (what is in or out), constraints (budget, tech, policy), priority (what matters most), timeline, audience (who uses it), environment (platform, stack, existing systems), quality (performance, security, reliability bars), other.',
  );
export type TargetAmbiguity = z.infer<typeof TargetAmbiguitySchema>;

/** One clarifying question the council would like to ask. */
export const ProposedQuestionSchema = z.object({
  question: sentence.describe(
    'One question about one thing, addressed to the user, answerable in a sentence. No preamble, no numbering.',
  ),
  targetAmbiguity: TargetAmbiguitySchema,
  recommendedAnswer: sentence.describe(
    'The answer you recommend and would assume if the user skips the question: concrete and reasonable for this request.',
  ),
  impact: z
    .number()
    .int()
    .min(1)
    .max(5)
    .describe('How much the answer changes the advice: 5 = changes it fundamentally, 3 = changes an important detail, 1 = barely matters.'),
  rationale: sentence.describe('One sentence: why the answer changes the advice.'),
});
export type ProposedQuestion = z.infer<typeof ProposedQuestionSchema>;

/** The clarify step's reply; questions come back sorted by impact (highest first) whatever order the model used. */
export const ProposedQuestionsSchema = z
  .object({
    needsClarification: z
      .boolean()
      .describe('false when the request, answers and assumptions are clear enough for the council to give good advice.'),
    questions: z
      .array(ProposedQuestionSchema)
      .max(5)
      .describe('At most 5 questions, highest impact first. Empty when needsClarification is false.'),
  })
  // Stable sort: the model's order breaks ties.
  .transform(reply => ({ ...reply, questions: [...reply.questions].sort((a, b) => b.impact - a.impact) }));
export type ProposedQuestions = z.infer<typeof ProposedQuestionsSchema>;

/** One persona's turn in one debate cycle. */
export const PersonaContributionSchema = z.object({
  position: sentence.describe('Your position in one sentence: what you recommend.'),
  argument: sentence.describe(
    'Your reasoning in markdown: evidence, trade-offs, and (after the first cycle) direct responses to named colleagues. Be concrete; no filler.',
  ),
  changedPosition: z
    .boolean()
    .describe('true if your position differs from the one you took in the previous cycle; false in the first cycle.'),
  changeReason: sentence
    .optional()
    .describe('When changedPosition is true: which argument changed your mind and why. Omit otherwise.'),
  agreesWith: z
    .array(sentence)
    .describe('Exact names of the colleagues whose positions you agree with; empty if none or in the first cycle.'),
  concerns: z
    .array(sentence)
    .describe('Risks or objections you still see, one sentence each; empty if none.'),
});
export type PersonaContribution = z.infer<typeof PersonaContributionSchema>;

/** One persona's position, as the moderator or synthesis reports it. */
export const PersonaPositionSchema = z.object({
  persona: sentence.describe('The persona name exactly as given.'),
  position: sentence.describe('Their current position in one sentence.'),
});
export type PersonaPosition = z.infer<typeof PersonaPositionSchema>;

/** The moderator's reading of one debate cycle. */
export const CycleVerdictSchema = z.object({
  resolutionSummary: sentence.describe(
    'Two to four sentences: what this cycle settled, what moved, and what is still contested.',
  ),
  positions: z.array(PersonaPositionSchema).describe("Each persona's position at the end of this cycle, one entry per persona."),
  converged: z
    .boolean()
    .describe('true when the positions agree on a recommendation, or remaining differences would not change it; another cycle would add little.'),
  openDisagreements: z
    .array(sentence)
    .describe('Disagreements that still matter, one sentence each naming who disagrees about what; empty when converged.'),
});
export type CycleVerdict = z.infer<typeof CycleVerdictSchema>;

/** How sure a persona is of its conclusion. */
export const ConfidenceSchema = z
  .enum(['high', 'medium', 'low'])
  .describe('high: you would bet on it; medium: likely right but depends on details; low: a best guess given missing information.');
export type Confidence = z.infer<typeof ConfidenceSchema>;

/** A persona's answer when there is no debate (a single persona, or the debate was skipped). */
export const PersonaConclusionSchema = z.object({
  conclusion: sentence.describe('Your answer to the request in markdown: the recommendation first, then the reasoning and caveats.'),
  confidence: ConfidenceSchema,
});
export type PersonaConclusion = z.infer<typeof PersonaConclusionSchema>;

/** A disagreement the council could not resolve, with each side's position. */
export const DisagreementSchema = z.object({
  topic: sentence.describe('What the disagreement is about, in a few words.'),
  positions: z.array(PersonaPositionSchema).min(2).describe('The differing positions, one entry per persona that holds one.'),
});
export type Disagreement = z.infer<typeof DisagreementSchema>;

/** The council's one consolidated answer. */
export const FinalSynthesisSchema = z.object({
  recommendation: sentence.describe(
    'The consolidated answer to the user in markdown: the recommendation first, then the key reasons; state which assumptions it rests on.',
  ),
  personaConclusions: z
    .array(
      z.object({
        persona: sentence.describe('The persona name exactly as given.'),
        conclusion: sentence.describe("That persona's final conclusion in one or two sentences."),
      }),
    )
    .describe('One entry per persona.'),
  disagreements: z
    .array(DisagreementSchema)
    .describe('Disagreements that remain and matter to the user; empty if the council agrees.'),
  nextSteps: z.array(sentence).describe('Concrete next actions for the user, most important first; three to six items.'),
});
export type FinalSynthesis = z.infer<typeof FinalSynthesisSchema>;
