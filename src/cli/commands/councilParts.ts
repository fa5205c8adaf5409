import type { CouncilDeps } from '../../core/council/ports';
import type { LanguageModel } from '../../core/llm/languageModel';
import { PriceBook } from '../../core/llm/spending/prices';
import { DemoModel } from '../demo/demoModel';
import { endpointFromEnvironment, OpenAiCompatibleModel } from '../openAiCompatibleModel';

/* What every council-running subcommand (ask, the resumes, mcp) is built from: the model and the limits. */

/** The most requests one run of the command may make: fits a 4-persona, 3-cycle economy council (the extension's default). */
export const MAX_REQUESTS_PER_RUN = 12;

/**
 * The spending limits and prices a run of the command works under. The governor counts the whole session, so a
 * session that already spent `spentBefore` requests gets this run's allowance on top: each run the person starts
 * (ask, retry, extend, …) may spend at most MAX_REQUESTS_PER_RUN.
 */
export function commandSpending(spentBefore = 0): NonNullable<CouncilDeps['spending']> {
  return { limits: { maxRequests: spentBefore + MAX_REQUESTS_PER_RUN }, prices: new PriceBook() };
}

/** The model a session runs on: the scripted demo model, or the OpenAI-compatible endpoint from the environment. */
export function commandModel(options: { readonly demo?: boolean; readonly model?: string }): LanguageModel {
  return options.demo === true
    ? new DemoModel()
    : new OpenAiCompatibleModel(endpointFromEnvironment(process.env, options.model ?? 'gpt-5-mini'));
}
