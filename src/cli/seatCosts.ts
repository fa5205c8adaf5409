import type { LedgerLine } from '../core/llm/spending/ledger';
import { amountText, tokensText } from '../core/llm/spending/spendText';

/*
 * What each seat (and the opening and the answer) spent, on which model: the ledger summed over the steps, so a
 * council of mixed families shows what each family cost.
 */

/** "Cost by seat:" then one line per who and model, in the order they first spoke; empty without requests. */
export function seatCostsText(lines: readonly LedgerLine[]): string {
  const seats = new Map<string, { who: string; model: string; requests: number; tokens: number; credits?: number }>();
  for (const line of lines) {
    const key = `${line.who}\u0000${line.model}`;
    const seat = seats.get(key) ?? { who: line.who, model: line.model, requests: 0, tokens: 0 };
    seat.requests += line.requests;
    seat.tokens += line.inputTokens + line.outputTokens;
    if (line.credits !== undefined) seat.credits = (seat.credits ?? 0) + line.credits;
    seats.set(key, seat);
  }
  if (seats.size === 0) return '';
  const rows = [...seats.values()].map(
    s =>
      `  ${s.who} · ${s.model} · ${s.requests} request${s.requests === 1 ? '' : 's'} · ${tokensText(s.tokens)} tokens · ${s.credits === undefined ? 'price unknown' : amountText(s.credits)}`,
  );
  return `Cost by seat:\n${rows.join('\n')}\n`;
}
