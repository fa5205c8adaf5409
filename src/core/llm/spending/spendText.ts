import type { LedgerLine, SpendTotals } from './ledger';

/*
 * Spending figures in the words every surface uses (progress lines, footers, /status, reports, the agent
 * tool), so a user reads the same figure the same way everywhere.
 */

/** "0.04", "3.1", "38". */
export function creditsText(credits: number): string {
  if (credits === 0) return '0';
  if (credits < 0.1) return credits.toFixed(2);
  if (credits < 10) return credits.toFixed(1);
  return Math.round(credits).toString();
}

/** "850", "12.3k", "1.2M". */
export function tokensText(tokens: number): string {
  if (tokens < 1_000) return `${tokens}`;
  if (tokens < 1_000_000) return `${(tokens / 1_000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** "12 requests · 31k tokens (28k in, 2.6k out) · about 15 credits". */
export function spendSummary(totals: SpendTotals): string {
  const requests = `${totals.requests} request${totals.requests === 1 ? '' : 's'}`;
  const tokens = `${tokensText(totals.inputTokens + totals.outputTokens)} tokens (${tokensText(totals.inputTokens)} in, ${tokensText(totals.outputTokens)} out)`;
  return [requests, tokens, creditsPart(totals)].join(' · ');
}

/** "12 requests · about 15 credits": short enough for a progress line. */
export function spendBrief(totals: SpendTotals): string {
  const requests = `${totals.requests} request${totals.requests === 1 ? '' : 's'}`;
  return `${requests} · ${tokensText(totals.inputTokens + totals.outputTokens)} tokens · ${creditsPart(totals)}`;
}

function creditsPart(totals: SpendTotals): string {
  const priced = totals.inputTokens + totals.outputTokens - totals.unpricedTokens;
  if (totals.unpricedTokens > 0 && priced === 0) return 'price unknown';
  const credits = `about ${creditsText(totals.credits)} AI credit${totals.credits === 1 ? '' : 's'}`;
  return totals.unpricedTokens > 0
    ? `${credits} + ${tokensText(totals.unpricedTokens)} tokens at unknown price`
    : credits;
}

/** A limit as the user set it: "40 credits, 12 requests" or "no limit". */
export function limitText(limits: { readonly maxCredits?: number; readonly maxRequests?: number }): string {
  const parts = [
    ...(limits.maxCredits !== undefined ? [`${creditsText(limits.maxCredits)} credits`] : []),
    ...(limits.maxRequests !== undefined ? [`${limits.maxRequests} requests`] : []),
  ];
  return parts.length > 0 ? `limit ${parts.join(', ')}` : 'no limit';
}

/** What a ledger line's failed requests were, for its Requests cell. */
function failedText(line: LedgerLine): string {
  if (!line.failed) return '';
  const refused = line.schemaRefused
    ? `; ${line.schemaRefused} refused the tool schema, so Council asked for JSON in the reply instead`
    : '';
  return ` (${line.failed} failed${refused})`;
}

/** The ledger as a Markdown table: who spent what in which step, on which model. */
export function ledgerMarkdown(lines: readonly LedgerLine[]): string {
  if (lines.length === 0) return '_No model requests yet._';
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  const rows = lines.map(
    l =>
      `| ${cell(l.who)} | ${cell(l.step)} | ${cell(l.model)} | ${l.requests}${failedText(l)} | ${l.inputTokens} | ${l.outputTokens} | ${l.credits === undefined ? 'unknown' : creditsText(l.credits)} |`,
  );
  return [
    '| Who | Step | Model | Requests | Tokens in | Tokens out | Credits |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
