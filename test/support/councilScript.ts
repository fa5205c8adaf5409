import { WRITE_ANSWER_TASK } from '../../src/core/council/prompts/answerTask';
import type { DebateOutlook } from '../../src/core/session/debateOutlook';

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
  /**
   * The opening names the decision's options (1: signed cookies, 2: server-side sessions, see SCRIPT_OPTIONS) and
   * every contribution backs one: from `convergeAtCycle` on all back option 2 with high confidence; before it the
   * first `dissenters` personas of the council (default 1) back option 1, the others option 2, with medium confidence.
   */
  readonly decisionOptions?: boolean;
  readonly dissenters?: number;
  /**
   * With the team's decision records in the prompt (fenced as `adr-N`), every contribution says which it goes
   * against: the first `opposeRecords` personas of the council (default 0) go against all of them, the others none.
   */
  readonly opposeRecords?: number;
  /** The selection's read of how far apart the council will start (default: none given, as a model may omit it). */
  readonly outlook?: DebateOutlook;
}

/** The options a scripted opening names when `decisionOptions` is set. */
export const SCRIPT_OPTIONS = ['signed cookies', 'server-side sessions in Redis'] as const;

/** Whether `name` is one of the first `count` personas of the script's council (ids compared with names). */
function amongFirst(name: string, count: number, options: CouncilScriptOptions): boolean {
  const ids = (options.personaIds ?? DEFAULT_SCRIPT_PERSONAS).slice(0, count);
  return ids.some(id => id.replace(/-/g, ' ').toLowerCase() === name.toLowerCase());
}

/** The records a contribution goes against, when the prompt has the team's records (see `opposeRecords`). */
function recordStance(prompt: string, speaker: string, options: CouncilScriptOptions): { againstRecords?: string[] } {
  const numbers = [...new Set([...prompt.matchAll(/\badr-(\d+)\b/g)].map(m => m[1] ?? ''))];
  if (numbers.length === 0) return {};
  return { againstRecords: amongFirst(speaker, options.opposeRecords ?? 0, options) ? numbers : [] };
}

/** The step name the script gives the streamed final answer (a prose request, no tool and no JSON). */
export const ANSWER_STEP = 'write_answer';

/** The step a request is for: its tool or JSON format name, else the prose answer when the prompt asks for it. */
export function councilStep(requested: string | undefined, prompt: string): string {
  return requested ?? (prompt.includes(WRITE_ANSWER_TASK) ? ANSWER_STEP : '');
}

/** A prose reply, streamed in these chunks. */
export interface ProseReply {
  readonly prose: readonly string[];
}

export function isProse(value: unknown): value is ProseReply {
  return typeof value === 'object' && value !== null && Array.isArray((value as { prose?: unknown }).prose);
}

/** Colleagues a debate prompt names: in the debate record's positions and contributions (not the speaker). */
function colleaguesOf(prompt: string, speaker: string): string[] {
  const names = new Set<string>();
  for (const block of prompt.matchAll(/<cycle[^>]*>([\s\S]*?)<\/cycle>/g)) {
    // A position from an earlier cycle than the record's latest reads "- Name (cycle N): …".
    for (const line of block[1]!.matchAll(/^- ([^:\n]+?)(?: \(cycle \d+\))?:/gm)) names.add(line[1]!.trim());
  }
  for (const match of prompt.matchAll(/<contribution persona="([^"]+)"/g)) names.add(match[1]!);
  names.delete(speaker);
  // Anonymized records call the speaker's own contributions "You".
  names.delete('You');
  return [...names];
}

export const DEFAULT_SCRIPT_PERSONAS = ['senior-developer', 'security-expert', 'software-architect'] as const;

/** The persona whose turn a prompt is ("You are <name>, a member of a council ..."). */
export function speakerOf(prompt: string): string {
  return /You are ([^,\n]+), a member of a council/.exec(prompt)?.[1] ?? 'Unknown persona';
}

/** The cycle a debate or moderator prompt is about. */
function cycleOf(prompt: string): number {
  const match =
    /This is debate cycle (\d+)/.exec(prompt) ?? /Cycle (\d+)(?: of at most \d+)? has just finished/.exec(prompt);
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
        ...(options.decisionOptions ? { decisionOptions: [...SCRIPT_OPTIONS] } : {}),
        ...(options.outlook ? { outlook: options.outlook } : {}),
      };
    case 'open_session':
      return {
        ...(councilReply('select_personas', prompt, options) as object),
        ...(councilReply('propose_clarifying_questions', prompt, options) as object),
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
      // From the converging cycle on, each persona says it agrees with every colleague (what the economy protocol reads).
      const agrees = converge !== 'never' && cycle >= converge;
      return {
        position: `${speaker} recommends option ${cycle === 1 ? 'A' : 'B'} (cycle ${cycle}).`,
        argument: `${speaker}'s argument in cycle ${cycle}.`,
        keyPoints: [`${speaker}'s decisive fact in cycle ${cycle}.`],
        changedPosition: cycle === 2,
        ...(cycle === 2 ? { changeReason: 'Persuaded by the others in cycle 1.' } : {}),
        agreesWith: agrees ? colleaguesOf(prompt, speaker) : [],
        concerns: cycle === 1 ? [`${speaker}'s main concern.`] : [],
        confidence: agrees ? 'high' : 'medium',
        // With the decision's options (the prompt lists them): B once agreeing; before that the dissenters back A.
        ...recordStance(prompt, speaker, options),
        ...(prompt.includes("The decision's options:")
          ? { option: agrees || !amongFirst(speaker, options.dissenters ?? 1, options) ? '2' : '1' }
          : {}),
        // From cycle 2 a vote: for the first colleague's position once agreeing. A council that never converges
        // keeps moving its vote (own, colleague, own…), so only the cycle limit ends its debate.
        ...(cycle > 1
          ? {
              vote:
                agrees || (converge === 'never' && cycle % 2 === 1)
                  ? (colleaguesOf(prompt, speaker)[0] ?? 'my own')
                  : 'my own',
            }
          : {}),
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
            ? [
                {
                  topic: 'Option A or B',
                  positions: members
                    .slice(0, 2)
                    .map((persona, i) => ({ persona, position: i === 0 ? 'Option A' : 'Option B' })),
                },
              ]
            : [],
        nextSteps: ['Prototype option B.', 'Review the security concerns.', 'Measure the result.'],
      };
    }
    case ANSWER_STEP: {
      const members = membersOf(prompt);
      const assumptions = [...prompt.matchAll(/Assumed: ([^\n<]+)/g)].map(m => m[1]);
      const split =
        converge === 'never' && members.length >= 2
          ? ` ${members[0]} still prefers option A; ${members[1]} holds to option B.`
          : '';
      const text = [
        `Go with option B.${assumptions.length ? ` This rests on: ${assumptions.join('; ')}.` : ''}`,
        ` The council weighed design, implementation and security.${split}`,
        '\n\n1. Prototype option B.\n2. Review the security concerns.\n3. Measure the result.',
      ];
      return { prose: text } satisfies ProseReply;
    }
    default:
      return undefined;
  }
}
