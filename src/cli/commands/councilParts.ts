import type { CouncilDeps } from '../../core/council/ports';
import type { LanguageModel } from '../../core/llm/languageModel';
import { PriceBook } from '../../core/llm/spending/prices';
import { DemoModel } from '../demo/demoModel';
import { endpointFromEnvironment, OpenAiCompatibleModel } from '../openAiCompatibleModel';

/* What every council-running subcommand (ask, the resumes, mcp) is built from: the model and the limits. */

/** The most requests one session may make: fits a 4-persona, 3-cycle economy council (the extension's default). */
const MAX_REQUESTS = 12;

/** The spending limits and prices every session of the command runs under. */
export function commandSpending(): NonNullable<CouncilDeps['spending']> {
  return { limits: { maxRequests: MAX_REQUESTS }, prices: new PriceBook() };
}

/** The model a session runs on: the scripted demo model, or the OpenAI-compatible endpoint from the environment. */
export function commandModel(options: { readonly demo?: boolean; readonly model?: string }): LanguageModel {
  return options.demo === true
    ? new DemoModel()
    : new OpenAiCompatibleModel(endpointFromEnvironment(process.env, options.model ?? 'gpt-5-mini'));
}
