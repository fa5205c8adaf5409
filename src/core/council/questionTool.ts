import type { ClarificationQuestion } from '../session/clarification';
import type { QuestionReply } from './toolSessionRun';

/*
 * VS Code's own question tool (`vscode_askQuestions`) shows a question in the chat with options, one marked
 * recommended, free text and Skip. Council's tools put the session's clarifying questions to the user through it,
 * one question per call (spec 004: one active question at a time), and turn each reply into the command the chat
 * would have sent: an answer, or a skip that the session logs as an assumption.
 */

/** The core tool's name (VS Code 1.137+: `vscode.lm.tools` lists it where the harness offers it). */
export const QUESTION_TOOL = 'vscode_askQuestions';

/** What VS Code answers for every question when nobody can reply (autopilot, `chat.autoReply`). */
const USER_UNAVAILABLE = /^The user is not available to respond/i;

/** The question tool's limits: a header of at most 50 characters, a question of at most 200. */
const HEADER_MAX = 50;
const QUESTION_MAX = 200;

/** One question as the question tool takes it. */
export interface QuestionToolInput {
  readonly questions: readonly [
    {
      readonly header: string;
      readonly question: string;
      readonly message?: string;
      readonly options?: readonly { readonly label: string; readonly recommended?: boolean }[];
      readonly allowFreeformInput: boolean;
    },
  ];
}

/** The header that names `question` in the tool's input and reply ("Question 2 of 3"). */
export function questionHeader(position: number, total: number): string {
  return `Question ${position} of ${total}`.slice(0, HEADER_MAX);
}

/**
 * The tool's input for one clarifying question: its text (a long one in the message below a short line), the
 * recommended answer as the one option marked recommended, and free text for any other answer.
 */
export function questionToolInput(question: ClarificationQuestion, header: string): QuestionToolInput {
  const text = question.question.replace(/\s+/g, ' ').trim();
  const short = text.length <= QUESTION_MAX;
  const recommended = question.recommendedAnswer?.trim();
  return {
    questions: [
      {
        header,
        question: short ? text : `${text.slice(0, QUESTION_MAX - 1)}…`,
        ...(short ? {} : { message: text }),
        ...(recommended ? { options: [{ label: recommended.slice(0, 200), recommended: true }] } : {}),
        allowFreeformInput: true,
      },
    ],
  };
}

interface ToolAnswer {
  readonly selected?: readonly unknown[];
  readonly freeText?: unknown;
  readonly skipped?: unknown;
}

/**
 * Reads the tool's reply (`{"answers":{"<header>":{"selected":[…],"freeText":…,"skipped":…}}}`) for the question
 * asked under `header`. Free text wins over a selected option (the user typed it); a reply that is not in that shape
 * is a skip, never a guess.
 */
export function readQuestionReply(replyText: string, header: string, recommended?: string): QuestionReply {
  let answer: ToolAnswer | undefined;
  try {
    const parsed = JSON.parse(replyText) as { readonly answers?: Record<string, ToolAnswer> };
    answer = parsed.answers?.[header];
  } catch {
    answer = undefined;
  }
  if (!answer || answer.skipped === true) return { kind: 'skipped', unavailable: false };
  const free = typeof answer.freeText === 'string' ? answer.freeText.trim() : '';
  if (USER_UNAVAILABLE.test(free)) return { kind: 'skipped', unavailable: true };
  const selected = (answer.selected ?? []).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  const text = free || selected.join('; ') || '';
  if (!text) return { kind: 'skipped', unavailable: false };
  // The recommended option's label may be cut to the tool's length: the session records the answer in full.
  const full = recommended && recommended.startsWith(text) ? recommended : text;
  return { kind: 'answered', command: { kind: 'answer', text: full } };
}
