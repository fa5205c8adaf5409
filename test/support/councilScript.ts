/**
 * A deterministic "council" played by a scripted model: given the structured reply a council step
 * asks for (by its tool name) and the prompt text, returns a valid reply. Shared by the unit tests,
 * the benchmark and the integration fixture, so all three exercise the same conversation.
 */

/** How the scripted council behaves. */
export interface CouncilScriptOptions {
  /** Persona ids the selector picks (default: senior developer, security expert, software architect). */
  readonly personaIds?: readonly string[];
  /** Questions proposed in round 1 (default 2); later rounds propose `moreQuestions` (default 1). */
  readonly questions?: number;
  readonly moreQuestions?: number;
  /** The moderator reports convergence from this cycle on (default 2); `never` keeps the debate going to the limit. */
  readonly convergeAtCycle?: number | 'never';
}

export const DEFAULT_SCRIPT_PERSONAS = ['senior-developer', 'security-expert', 'software-architect'] as const;

/** The persona whose turn a prompt is ("You are <name>, a member of a council ..."). */
export function speakerOf(prompt: string): string {
  return /You are ([^,\n]+), a member of a council/.exec(prompt)?.[1] ?? 'Unknown persona';
}

/** The cycle a debate or moderator prompt is about. */
function cycleOf(prompt: string): number {
  const match = /This is debate cycle (\d+)/.exec(prompt) ?? /Cycle (\d+)(?: of at most \d+)? has just finished/.exec(prompt);
  return match?.[1] ? Number(match[1]) : 1;
}

/** The clarification round a clarify prompt is about. */
function roundOf(prompt: string): number {
  const match = /clarification round (\d+)/.exec(prompt);
  return match?.[1] ? Number(match[1]) : 1;
}

/** Council member names listed in a prompt's council block ("- Name: role ..."). */
function membersOf(prompt: string): string[] {
  const block = /<council_members[^>]*>([\s\S]*?)<\/council_members>/.exec(prompt)?.[1] ?? '';
  return [...block.matchAll(/^- ([^:\n]+):/gm)].map(m => m[1]!.trim());
}

/** The reply for one council step, or undefined for a step this script doesn't know. */
export function councilReply(step: string, prompt: string, options: CouncilScriptOptions = {}): unknown {
  const converge = options.convergeAtCycle ?? 2;
  switch (step) {
    case 'select_personas':
      return {
        classification: 'architecture',
        personaIds: [...(options.personaIds ?? DEFAULT_SCRIPT_PERSONAS)],
        reason: 'The request touches design, implementation and security.',
      };
    case 'propose_clarifying_questions': {
      const round = roundOf(prompt);
      const count = round === 1 ? (options.questions ?? 2) : (options.moreQuestions ?? 1);
      return {
        needsClarification: count > 0,
        questions: Array.from({ length: count }, (_, i) => ({
          question: `Round ${round} question ${i + 1}: what matters most here?`,
          targetAmbiguity: i % 2 === 0 ? 'scope' : 'constraints',
          recommendedAnswer: `Recommended answer ${round}.${i + 1}`,
          impact: 5 - Math.min(i, 4),
          rationale: 'It changes the advice.',
        })),
      };
    }
    case 'contribute_to_debate': {
      const speaker = speakerOf(prompt);
      const cycle = cycleOf(prompt);
      return {
        position: `${speaker} recommends option ${cycle === 1 ? 'A' : 'B'} (cycle ${cycle}).`,
        argument: `${speaker}'s argument in cycle ${cycle}.`,
        changedPosition: cycle === 2,
        ...(cycle === 2 ? { changeReason: 'Persuaded by the others in cycle 1.' } : {}),
        agreesWith: [],
        concerns: cycle === 1 ? [`${speaker}'s main concern.`] : [],
      };
    }
    case 'moderate_cycle': {
      const cycle = cycleOf(prompt);
      const converged = converge !== 'never' && cycle >= converge;
      return {
        resolutionSummary: `After cycle ${cycle} the council ${converged ? 'agrees on option B' : 'is still split'}.`,
        positions: membersOf(prompt).map(persona => ({ persona, position: 'Option B' })),
        converged,
        openDisagreements: converged ? [] : ['Option A versus option B.'],
      };
    }
    case 'give_conclusion': {
      const speaker = speakerOf(prompt);
      return { conclusion: `${speaker} concludes: go with option B.`, confidence: 'medium' };
    }
    case 'write_final_answer': {
      const members = membersOf(prompt);
      const assumptions = [...prompt.matchAll(/Assumed: ([^\n<]+)/g)].map(m => m[1]);
      return {
        recommendation: `Go with option B.${assumptions.length ? ` This rests on: ${assumptions.join('; ')}.` : ''}`,
        personaConclusions: members.map(persona => ({ persona, conclusion: `${persona} supports option B.` })),
        disagreements:
          converge === 'never' && members.length >= 2
            ? [{ topic: 'Option A or B', positions: members.slice(0, 2).map((persona, i) => ({ persona, position: i === 0 ? 'Option A' : 'Option B' })) }]
            : [],
        nextSteps: ['Prototype option B.', 'Review the security concerns.', 'Measure the result.'],
      };
    }
    default:
      return undefined;
  }
}
