import { LanguageModelFailure, withSendRequest, type LanguageModel } from './languageModel';

/**
 * The most model requests a session may spend (each is a premium request through Copilot), enforced in one
 * place: every request goes through a `budgetedModel`, which takes one request from here before it is sent.
 * Failed requests and repair rounds count too, because the provider bills them.
 */
export class RequestBudget {
  /**
   * @param limit the most requests; undefined: no limit
   * @param spentBefore requests the session spent in earlier turns
   * @param onSpend called once per request taken (the session log counts it, so it is stored)
   */
  constructor(
    readonly limit: number | undefined,
    private spentBefore: number,
    private readonly onSpend: () => void = () => undefined,
  ) {}

  /** Requests spent so far, over all turns. */
  get spent(): number {
    return this.spentBefore;
  }

  /** Requests still allowed (Infinity without a limit). */
  get remaining(): number {
    return this.limit === undefined ? Infinity : Math.max(0, this.limit - this.spentBefore);
  }

  /** Takes one request, or throws a `budgetSpent` failure when none is left. */
  take(): void {
    if (this.remaining < 1) throw budgetSpent(this.limit ?? 0, this.spentBefore);
    this.spentBefore += 1;
    this.onSpend();
  }
}

/** The failure a step meets when the budget cannot pay for the requests it needs. */
export function budgetSpent(
  limit: number,
  spent: number,
  needed?: { readonly requests: number; readonly forWhat: string },
): LanguageModelFailure {
  const need = needed
    ? ` ${capitalized(needed.forWhat)} needs ${needed.requests} more request${needed.requests === 1 ? '' : 's'}.`
    : '';
  return new LanguageModelFailure(
    'budgetSpent',
    `This session has used ${spent} of its ${limit} model requests.${need} Raise \`council.budget.maxRequests\` in the settings, then press Try again to continue where it stopped.`,
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `model`, with every request paid from `budget` before it is sent. */
export function budgetedModel(model: LanguageModel, budget: RequestBudget): LanguageModel {
  return withSendRequest(model, (request, token) => {
    budget.take();
    return model.sendRequest(request, token);
  });
}
