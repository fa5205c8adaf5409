import { PromptElement, type BasePromptElementProps, type PromptSizing } from '@vscode/prompt-tsx';

/** Props of {@link FittedText}. */
export interface FittedTextProps extends BasePromptElementProps {
  /** Kept whole, around the (possibly shortened) text. */
  readonly before: string;
  readonly text: string;
  readonly after: string;
  /** Appended to the text when it had to be shortened. */
  readonly truncationNote: string;
}

/**
 * Text that must never be dropped (the user's request): shown whole when it fits its budget,
 * else cut at a word boundary with a note saying so. Give it `flexGrow` so it sizes itself
 * to what the fixed parts of the prompt left over.
 */
export class FittedText extends PromptElement<FittedTextProps, string> {
  override async prepare(sizing: PromptSizing): Promise<string> {
    const { before, text, after, truncationNote } = this.props;
    // A few tokens short of the share: the pieces around it are counted one by one and their joins are not, and a
    // request that overshoots by one token is pruned whole (it has the lowest priority), never cut.
    const budget = Math.max(0, sizing.tokenBudget - Math.min(32, Math.ceil(sizing.tokenBudget * 0.05)));
    const whole = before + text + after;
    if ((await sizing.countTokens(whole)) <= budget) return whole;
    const cuts = [...text.matchAll(/\s+/g)].map(match => match.index);
    const candidate = (cut: number): string => `${before}${text.slice(0, cut).trimEnd()}\n${truncationNote}${after}`;
    // Binary search for the longest word-boundary prefix that fits.
    let low = 0;
    let high = cuts.length - 1;
    let best = candidate(0);
    while (low <= high) {
      const mid = (low + high) >> 1;
      const attempt = candidate(cuts[mid] ?? 0);
      if ((await sizing.countTokens(attempt)) <= budget) {
        best = attempt;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return best;
  }

  render(fitted: string) {
    return <>{fitted}</>;
  }
}
