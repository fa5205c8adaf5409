import { z } from 'zod';
import type { SessionSnapshot } from '../session/machine';
import { activeAssumptions, pendingQuestions } from '../session/selectors';
import type { SpendTotals } from '../llm/spending/ledger';
import { spendSummary } from '../llm/spending/spendText';
import { forecastText, type ForecastFigure } from '../llm/spending/forecastText';
import { openSessionCommand } from './chatIntent';
import type { CouncilCommand } from './commands';
import type { NextStepKind } from '../nextSteps';
import { untrusted } from './wording/markdown';
import { describeIssues } from '../zodIssues';

/*
 * What Council's language-model tools take and say about a session, beside the chat: the same session, the same
 * commands (`CouncilCommand`) and the same store as `@council`; only the door differs. An agent opens a session
 * (`council_open`: the council and its clarifying questions), gets the user's answers (through VS Code's question tool,
 * or by asking in the chat), then continues it by id (`council_deliberate`): answers, extend, revisit, more, retry.
 */

/** The tool names (package.json `contributes.languageModelTools`). */
export const TOOL = {
  open: 'council_open',
  deliberate: 'council_deliberate',
  plan: 'council_plan',
  workflow: 'council_workflow',
} as const;

const Personas = z.array(z.string()).optional();

/**
 * A tool's input as `schema` reads it, or what is wrong with it field by field, in the words Council uses for every
 * file and record it checks; the same from every door (nothing has been run or spent).
 */
export function readToolInput<T>(
  tool: string,
  schema: z.ZodType<T>,
  input: unknown,
): { readonly input: T } | { readonly malformed: string } {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return { input: parsed.data };
  const problems = describeIssues(parsed.error.issues, 'input', { schema, data: input ?? {} }).join(' ');
  return { malformed: `${tool} was called with a malformed input (nothing was run or spent): ${problems}` };
}

/** `council_open`'s input. */
export const OpenInputSchema = z.object({
  question: z.string().trim().min(1, 'question must not be empty'),
  context: z.string().optional(),
  personas: Personas,
});
export type OpenInput = z.infer<typeof OpenInputSchema>;

/** What a continued session is asked to do: the next steps (core/nextSteps.ts) a call takes by name. */
const SESSION_ACTIONS = [
  'answer',
  'extend',
  'revisit',
  'more',
  'retry',
  'record',
] as const satisfies readonly NextStepKind[];
export type SessionAction = (typeof SESSION_ACTIONS)[number];

/** One answer an agent passes on from the user. */
export const ToolAnswer = z.object({
  questionId: z.string().trim().min(1, 'questionId must not be empty'),
  answer: z.string(),
});

/** The continuation half of `council_deliberate`'s input (the other half starts a session without questions). */
export const ContinuationFields = {
  sessionId: z.string().trim().min(1, 'sessionId must not be empty').optional(),
  answers: z.array(ToolAnswer).optional(),
  action: z.enum(SESSION_ACTIONS).optional(),
};

/**
 * The commands that carry out `action` on a session in `snapshot`'s state, or what is wrong with the request.
 * `answer` (the default while questions are open) answers the open questions in the session's order from `answers`
 * and skips each one left out (its recommended answer becomes a logged assumption); outside clarification the default
 * is `retry`, which continues a stopped step (nothing when the session is complete).
 */
export function continuationCommands(
  snapshot: SessionSnapshot,
  request: { readonly action?: SessionAction; readonly answers?: readonly z.infer<typeof ToolAnswer>[] },
): { readonly commands: readonly CouncilCommand[] } | { readonly refused: string } {
  const state = snapshot.value;
  const action = request.action ?? (state === 'clarifying' ? 'answer' : 'retry');
  const answers = request.answers ?? [];
  switch (action) {
    case 'answer': {
      if (state !== 'clarifying')
        return {
          refused: `Session ${snapshot.context.sessionId} has no open question (it is ${state}); answers cannot be recorded now.`,
        };
      const open = pendingQuestions(snapshot);
      const unknown = answers.filter(a => !open.some(q => q.questionId === a.questionId)).map(a => a.questionId);
      if (unknown.length > 0)
        return {
          refused: `No open question has the id ${unknown.map(id => `\`${id}\``).join(', ')}. The open questions are: ${open.map(q => `\`${q.questionId}\``).join(', ')}.`,
        };
      return {
        commands: open.map(question => {
          const text = answers.find(a => a.questionId === question.questionId)?.answer.trim();
          return text ? { kind: 'answer', text } : { kind: 'skip' };
        }),
      };
    }
    case 'extend':
      return { commands: [{ kind: 'extend' }] };
    case 'revisit':
      return { commands: [{ kind: 'revisit' }] };
    case 'more':
      return { commands: [{ kind: 'more' }] };
    case 'retry':
      return { commands: state === 'completed' || state === 'cancelled' ? [] : [{ kind: 'retry' }] };
    case 'record':
      // Recording runs no council turn: the door writes the record (after the user confirms) from the stored session.
      return state === 'completed'
        ? { commands: [] }
        : {
            refused: `Session ${snapshot.context.sessionId} has no final answer yet (it is ${state}): a decision is recorded once the council has answered.`,
          };
  }
}

/** The council on a session and why it was chosen. */
export function councilLine(snapshot: SessionSnapshot): string {
  const names = snapshot.context.participants.filter(p => p.type === 'persona').map(p => p.name);
  const reason = snapshot.context.selection?.reason;
  return `Council: ${names.join(', ') || 'not chosen yet'}${reason ? ` — ${untrusted(reason).replace(/\n/g, ' ')}` : ''}.`;
}

/** What the user did with the questions put to them through VS Code's question tool, for the report. */
export interface QuestionsAsked {
  readonly answered: number;
  readonly skipped: number;
  /** Nobody could answer (autopilot): the questions were skipped and logged as assumptions. */
  readonly unavailable: boolean;
}

/** Where a session that is still clarifying stands, and what the agent does next. */
export function clarifyingReport(
  snapshot: SessionSnapshot,
  facts: {
    readonly model: string;
    readonly spent: SpendTotals;
    readonly asked?: QuestionsAsked;
    /** The debate still ahead (debateForecast.ts), when there is one. */
    readonly ahead?: { readonly expected: ForecastFigure; readonly bound: ForecastFigure };
  },
): string {
  const c = snapshot.context;
  const open = pendingQuestions(snapshot);
  const lines = [
    `Council session ${c.sessionId} (${snapshot.value}). ${councilLine(snapshot)}`,
    `Model: ${facts.model}. Spent so far: ${spendSummary(facts.spent)}.`,
    ...(facts.ahead
      ? [
          `The debate still ahead is forecast at ${forecastText(facts.ahead.expected, facts.ahead.bound, 'more request')} (\`${TOOL.deliberate}\` shows the user its own forecast to confirm).`,
        ]
      : []),
  ];
  if (facts.asked)
    lines.push(
      facts.asked.unavailable
        ? `The user could not be asked (VS Code answered that nobody is available): ${facts.asked.skipped} question(s) skipped, each logged as an assumption.`
        : `The user answered ${facts.asked.answered} question(s) through VS Code's question tool and skipped ${facts.asked.skipped} (each skip logged as an assumption).`,
    );
  if (open.length > 0) {
    const round = Math.max(c.clarificationRounds, 1);
    lines.push(
      '',
      `Clarifying questions (round ${round} of at most ${c.limits.maxClarificationRounds}). Ask the user ONE AT A TIME, in this order, showing the recommended answer; the user may answer in their own words, accept the recommendation, or skip:`,
      ...open.map(
        (q, i) =>
          `${i + 1}. [questionId: ${q.questionId}] ${untrusted(q.question).replace(/\n/g, ' ')}${q.recommendedAnswer ? ` — Recommended: ${untrusted(q.recommendedAnswer).replace(/\n/g, ' ')}` : ''}`,
      ),
      '',
      `Then call \`${TOOL.deliberate}\` with {"sessionId": "${c.sessionId}", "answers": [{"questionId": "…", "answer": "…"}]}. A question left out of "answers" is skipped: its recommended answer is logged as an assumption. The council then debates and answers.`,
    );
  } else {
    lines.push(
      '',
      `No question is open. Call \`${TOOL.deliberate}\` with {"sessionId": "${c.sessionId}"} to run the debate (the user confirms its cost first).`,
    );
  }
  const assumptions = activeAssumptions(snapshot);
  if (assumptions.length > 0)
    lines.push('', 'Assumptions so far:', ...assumptions.map(a => `- ${untrusted(a.assumption).replace(/\n/g, ' ')}`));
  lines.push('', `The user can open this session in the chat with \`${openSessionCommand(c.sessionId)}\`.`);
  return lines.join('\n') + '\n';
}
