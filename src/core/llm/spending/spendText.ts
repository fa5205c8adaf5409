import type { LedgerLine, SpendTotals } from './ledger';

/*
 * Spending figures in the words every surface uses (progress lines, footers, /status, reports, the agent
 * tool), so a user reads the same figure the same way everywhere.
 */

/**
 * The unit costs are shown in: Copilot's AI credits (the extension), or US dollars (the `council` command, whose
 * price table is in dollars). The governor counts credits either way (1 credit = $0.01); only the words change.
 * A host sets it once when it starts.
 */
export type CostUnit = 'credits' | 'dollars';
let shownUnit: CostUnit = 'credits';

export function showCostsIn(unit: CostUnit): void {
  shownUnit = unit;
}

export function costsInDollars(): boolean {
  return shownUnit === 'dollars';
}

/** "$0.0042", "$0.12", "$3.40". */
function dollarsText(credits: number): string {
  const dollars = credits / 100;
  if (dollars === 0) return '$0';
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}

/** An amount as a figure in the shown unit: "15" (credits), or "$0.15". */
export function amountText(credits: number): string {
  return shownUnit === 'dollars' ? dollarsText(credits) : creditsText(credits);
}

/** "about 5 of them left" (credits), or "about $0.05 of it left". */
export function leftText(credits: number): string {
  return `about ${amountText(credits)} of ${shownUnit === 'dollars' ? 'it' : 'them'} left`;
}

/** An amount with its unit: "15 AI credits" ("15 more AI credits" with `more`), or "$0.15" ("$0.15 more"). */
export function costText(credits: number, more = false): string {
  if (shownUnit === 'dollars') return `${dollarsText(credits)}${more ? ' more' : ''}`;
  return `${creditsText(credits)} ${more ? 'more ' : ''}AI credits`;
}

/** A span with its unit: "0.1–0.5 AI credits", or "$0.0010–$0.0050". */
export function costSpanText(fewest: number, most: number): string {
  if (shownUnit === 'dollars') {
    const [low, high] = [dollarsText(fewest), dollarsText(most)];
    return low === high ? high : `${low}–${high}`;
  }
  const [low, high] = [creditsText(fewest), creditsText(most)];
  return `${low === high ? high : `${low}–${high}`} AI credits`;
}

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
  const credits =
    shownUnit === 'dollars'
      ? `about ${dollarsText(totals.credits)}`
      : `about ${creditsText(totals.credits)} AI credit${totals.credits === 1 ? '' : 's'}`;
  return totals.unpricedTokens > 0
    ? `${credits} + ${tokensText(totals.unpricedTokens)} tokens at unknown price`
    : credits;
}

/** A limit as the user set it: "40 credits, 12 requests" or "no limit". */
export function limitText(limits: { readonly maxCredits?: number; readonly maxRequests?: number }): string {
  const parts = [
    ...(limits.maxCredits !== undefined
      ? [shownUnit === 'dollars' ? dollarsText(limits.maxCredits) : `${creditsText(limits.maxCredits)} credits`]
      : []),
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
      `| ${cell(l.who)} | ${cell(l.step)} | ${cell(l.model)} | ${l.requests}${failedText(l)} | ${l.inputTokens} | ${l.outputTokens} | ${l.credits === undefined ? 'unknown' : shownUnit === 'dollars' ? dollarsText(l.credits) : creditsText(l.credits)} |`,
  );
  return [
    `| Who | Step | Model | Requests | Tokens in | Tokens out | ${shownUnit === 'dollars' ? 'Cost' : 'Credits'} |`,
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
