import { createInterface } from 'node:readline/promises';
import { CancelledError } from '../core/llm/languageModel';
import type { ClarificationQuestion } from '../core/session/clarification';
import type { QuestionPosition } from '../core/council/questionPosition';
import type { QuestionReply } from './askCouncil';
import type { Interrupt } from './interrupt';

/*
 * What the `council` command asks at the terminal (on stderr, so stdout carries only the answer): a clarifying
 * question, and a [y/N] before something is spent or written. Each prompt opens the terminal only while it waits, so
 * Ctrl+C between prompts is a plain SIGINT; while a prompt waits it is a key, passed on to the interrupt.
 */

/** One line typed at the terminal; a Ctrl+C there stops the session as the signal would. */
async function promptLine(text: string, interrupt?: Interrupt): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  const waiting = new AbortController();
  const stop = () => waiting.abort();
  // In raw mode Ctrl+C reaches the prompt as a key, not as SIGINT: it counts as the same Ctrl+C.
  const pressed = () => (interrupt ? interrupt.press() : stop());
  interrupt?.signal.addEventListener('abort', stop, { once: true });
  terminal.on('SIGINT', pressed);
  try {
    return await terminal.question(text, { signal: waiting.signal });
  } catch (error) {
    if (waiting.signal.aborted) throw new CancelledError('Stopped with Ctrl+C while waiting for an answer.');
    throw error;
  } finally {
    interrupt?.signal.removeEventListener('abort', stop);
    terminal.off('SIGINT', pressed);
    terminal.close();
  }
}

/** Model text without terminal control sequences (the model's words are untrusted; an escape could rewrite the screen). */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

/** The question as the terminal shows it, once: where it stands, the question, the recommended answer. */
export function questionPrompt(question: ClarificationQuestion, position: QuestionPosition): string {
  const recommended = question.recommendedAnswer ? `\n  Recommended: ${printable(question.recommendedAnswer)}` : '';
  const left = position.left > 0 ? ` · ${position.left} more after this one` : '';
  return (
    `\nClarifying question · round ${position.round} of at most ${position.maxRounds}${left}` +
    `\n? ${printable(question.question)}${recommended}\n`
  );
}

/** Puts one question to the terminal: Enter accepts the recommended answer, `s` skips, anything else answers. */
export async function askOnTerminal(prompt: string, interrupt?: Interrupt): Promise<QuestionReply> {
  const reply = (await promptLine(prompt, interrupt)).trim();
  if (reply === '') return { kind: 'accept' };
  if (reply.toLowerCase() === 's') return { kind: 'skip' };
  return { kind: 'answer', text: reply };
}

/** A [y/N] question: true only for y or yes. */
export async function confirmOnTerminal(question: string, interrupt?: Interrupt): Promise<boolean> {
  return /^y(es)?$/i.test((await promptLine(`${question} [y/N] `, interrupt)).trim());
}
