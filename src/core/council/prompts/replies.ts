import { z } from 'zod';
import { OTHER_OPTION, type DecisionOption } from '../../session/decisionOptions';

/**
 * What the council's model calls must return. Each schema is both the validator and, via
 * `z.toJSONSchema`, what the model is asked to fill in — so the `.describe()` texts are
 * written for the model.
 */

/** Text that says something: the `\\S` pattern puts "not blank" into the JSON Schema the model sees. */
const sentence = z.string().regex(/\S/, 'must not be blank').trim();

/** Names of the personas on the council, in council order. */
export type CouncilNames = readonly string[];

/** One of `names` (an enum in the JSON Schema), or any non-blank text when there are none to choose from. */
function nameOf(names: readonly string[]): z.ZodType<string> {
  const [first, ...rest] = names;
  return first === undefined ? sentence : z.enum([first, ...rest]);
}

/** The kinds of ambiguity a clarifying question can resolve. */
const AMBIGUITY_KINDS = [
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
    .describe(
      'How much the answer changes the advice: 5 = changes it fundamentally, 3 = changes an important detail, 1 = barely matters.',
    ),
  rationale: sentence.describe('One sentence: why the answer changes the advice.'),
});
export type ProposedQuestion = z.infer<typeof ProposedQuestionSchema>;

/** The fields of the clarify step's reply; the opening reply (select and clarify at once) has them too. */
export const proposedQuestionsFields = {
  needsClarification: z
    .boolean()
    .describe('false when the request, answers and assumptions are clear enough for the council to give good advice.'),
  questions: z
    .array(ProposedQuestionSchema)
    .max(5)
    .describe(
      'At most 5 questions, highest impact first, each asked once and none already asked. Empty when needsClarification is false.',
    ),
};

/** The questions sorted by impact, highest first; a stable sort, so the model's order breaks ties. */
export function byImpact<T extends { readonly questions: readonly ProposedQuestion[] }>(reply: T): T {
  return { ...reply, questions: [...reply.questions].sort((a, b) => b.impact - a.impact) };
}

/** The clarify step's reply; questions come back sorted by impact (highest first) whatever order the model used. */
export const ProposedQuestionsSchema = z.object(proposedQuestionsFields).transform(byImpact);
export type ProposedQuestions = z.infer<typeof ProposedQuestionsSchema>;

/** How sure a persona is of its conclusion. */
export const ConfidenceSchema = z
  .enum(['high', 'medium', 'low'])
  .describe(
    'high: you would bet on it; medium: likely right but depends on details; low: a best guess given missing information.',
  );
export type Confidence = z.infer<typeof ConfidenceSchema>;

/** One persona's turn in one debate cycle (the shape every cycle's reply has). */
export const PersonaContributionSchema = z.object({
  position: sentence.describe('Your position in one sentence: what you recommend.'),
  argument: sentence.describe(
    'Your reasoning in markdown: evidence, trade-offs, and (after the first cycle) direct responses to named colleagues. Be concrete; no filler.',
  ),
  keyPoints: z
    .array(sentence.max(300))
    .min(1)
    .max(4)
    .describe(
      'The 1-4 facts or reasons your position rests on, one sentence each, concrete (numbers, names, conditions). Colleagues and the final answer read these instead of your whole argument, so include any fact that decides the question.',
    ),
  changedPosition: z
    .boolean()
    .describe('true if your position differs from the one you took in the previous cycle; false in the first cycle.'),
  changeReason: sentence
    .optional()
    .describe(
      'Only when changedPosition is true, and then required: which argument changed your mind and why. Omit it when changedPosition is false.',
    ),
  agreesWith: z
    .array(sentence)
    .describe(
      'Exact names of the colleagues whose positions you agree with, each once; never your own name; empty if none or in the first cycle.',
    ),
  concerns: z
    .array(sentence)
    .meta({ uniqueItems: true })
    .describe('Risks or objections you still see, one sentence each; empty if none.'),
  confidence: ConfidenceSchema,
  vote: z.string().optional().describe("From the second cycle: the one position you back as the council's answer."),
  option: z.string().optional().describe("The label of the decision's option your position backs."),
  againstRecords: z
    .array(z.string())
    .optional()
    .describe("The numbers of the team's earlier decision records your position goes against; empty if none."),
});
export type PersonaContribution = z.infer<typeof PersonaContributionSchema>;

/** What one contribution request may contain: who the colleagues are and which cycle it is. */
export interface ContributionTerms {
  /** 1-based debate cycle. */
  readonly cycle: number;
  /** How the speaker knows the other personas on the council (from cycle 2: their positions' labels). */
  readonly colleagues: CouncilNames;
  /** The decision's options, when the opening named them: every contribution backs one (or "another answer"). */
  readonly options?: readonly DecisionOption[];
  /** The numbers of the team's earlier decision records the session was given as precedent, if any. */
  readonly records?: readonly string[];
}

/**
 * The option field for `options`: an enum of their labels plus "another answer". The options themselves are spelled
 * out once, in the prompt the schema goes with (listing them here too paid for them twice in every contribution).
 */
function optionField(options: readonly DecisionOption[]) {
  return z
    .enum([...options.map(o => o.label), OTHER_OPTION])
    .describe(
      `The number of the decision's option your position backs, as the prompt lists them; "${OTHER_OPTION}" when none of them is your answer.`,
    );
}

/** The vote for one's own position. */
export const OWN_VOTE = 'my own';

/** What a speaker's own contributions are called in its prompt, where its colleagues are anonymous labels. */
export const OWN_LABEL = 'You';

/**
 * The contribution reply for one persona in one cycle: in cycle 1 there is no earlier position to have
 * changed and no colleague to agree with, so the schema says so; later, agreesWith names only colleagues.
 * That changeReason goes with changedPosition cannot be said in a flat JSON Schema: the descriptions say it.
 */
/** The precedent field for `records`: which of them the speaker's position goes against (required, so it is decided). */
function againstRecordsField(records: readonly string[]) {
  return z
    .array(z.enum(records as [string, ...string[]]))
    .max(records.length)
    .meta({ uniqueItems: true })
    .describe(
      "The numbers of the team's earlier decision records (given as data) that your position goes against, each once; empty if it agrees with all of them.",
    );
}

export function contributionReplySchema(terms: ContributionTerms): z.ZodType<PersonaContribution> {
  const records = terms.records ?? [];
  const plain = PersonaContributionSchema.omit({ option: true, againstRecords: true });
  const base = records.length > 0 ? plain.extend({ againstRecords: againstRecordsField(records) }) : plain;
  const options = terms.options ?? [];
  if (terms.cycle <= 1) {
    const first = base.omit({ changeReason: true, vote: true }).extend({
      changedPosition: z.literal(false).describe('Always false in the first cycle: there is no earlier position.'),
      agreesWith: z.array(sentence).max(0).describe('Empty in the first cycle: you have not read your colleagues yet.'),
    });
    return options.length > 0 ? first.extend({ option: optionField(options) }) : first;
  }
  const agreesWith =
    terms.colleagues.length === 0
      ? z.array(sentence).max(0).describe('Empty: you have no colleagues on this council.')
      : z
          .array(nameOf(terms.colleagues))
          .max(terms.colleagues.length)
          .meta({ uniqueItems: true })
          .describe("Exact labels of the colleagues' positions you agree with, each once; empty if none.");
  const vote = z
    .enum([OWN_VOTE, ...terms.colleagues])
    .describe(
      `The one position you now back as the council's answer: "${OWN_VOTE}" for yours, or the label of the colleague's position you prefer to it.`,
    );
  const later = base.extend({ agreesWith, vote });
  return options.length > 0 ? later.extend({ option: optionField(options) }) : later;
}

/**
 * The moderator's reading of one debate cycle. Each persona's position is not asked for: the session
 * already holds what each persona said (derive, don't ask).
 */
export const CycleVerdictSchema = z.object({
  resolutionSummary: sentence.describe(
    'Two to four sentences: what this cycle settled, what moved, and what is still contested.',
  ),
  converged: z
    .boolean()
    .describe(
      'true when the positions agree on a recommendation, or remaining differences would not change it; another cycle would add little.',
    ),
  openDisagreements: z
    .array(sentence)
    .meta({ uniqueItems: true })
    .describe(
      'Disagreements that still matter, one sentence each naming who disagrees about what; empty when converged.',
    ),
});
export type CycleVerdict = z.infer<typeof CycleVerdictSchema>;

/** A persona's answer when there is no debate (a single persona, or the debate was skipped). */
export const PersonaConclusionSchema = z.object({
  conclusion: sentence.describe(
    'Your answer to the request in markdown: the recommendation first, then the reasoning and caveats.',
  ),
  confidence: ConfidenceSchema,
});
export type PersonaConclusion = z.infer<typeof PersonaConclusionSchema>;
