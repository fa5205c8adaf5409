import type { CouncilDeps, RoleModels } from '../../core/council/ports';
import { LanguageModelFailure, type LanguageModel } from '../../core/llm/languageModel';
import type { PersonaContract } from '../../core/personas/contract';
import { PriceBook } from '../../core/llm/spending/prices';
import { builtInPersonas } from '../builtInPersonas';
import { commandLimitAdvice } from '../commandLimitAdvice';
import { DemoModel } from '../demo/demoModel';
import { NO_MODEL_HELP } from '../providers/environmentModel';
import { userModels } from '../providers/userModels';

/*
 * What every council-running subcommand (ask, the resumes, plan, workflow, mcp, eval) is built from: the personas,
 * the models and the limits, read once per command.
 */

/** The most requests one run of the command may make: fits a 4-persona, 3-cycle economy council (the extension's default). */
export const MAX_REQUESTS_PER_RUN = 12;

/** The models a run works on, and how it is limited and priced. */
export interface CommandModels {
  /** The built-in personas a council seats from (the config's seats are checked against them). */
  readonly personas: readonly PersonaContract[];
  /** The opening's model (CouncilDeps.model). */
  readonly model: LanguageModel;
  /** The seats' and the answer's models when the config names any. */
  readonly roleModels?: RoleModels;
  /** True when the user's own models run (priced in dollars, cost by seat printed); false for the demo. */
  readonly own: boolean;
  /** The prices requests are counted at (the user's dollars, else Copilot's table). */
  readonly prices: PriceBook;
  /**
   * The spending limits and prices of this run. The governor counts the whole session, so a session that already
   * spent `spentBefore` requests gets this run's allowance on top: each run the person starts (ask, retry, extend, …)
   * may spend at most its request limit (the config's, else MAX_REQUESTS_PER_RUN).
   */
  spending(spentBefore?: number): NonNullable<CouncilDeps['spending']>;
}

interface ModelOptions {
  readonly project: string;
  readonly demo?: boolean;
  readonly modelFlag?: string;
  readonly given?: LanguageModel;
}

/**
 * The models a run works on: the scripted demo model, a model the caller passes (tests), or the user's (config file,
 * else environment). Fails, before any request, when none is set up, saying how to set one up.
 */
export async function commandModels(options: ModelOptions): Promise<CommandModels> {
  const models = await chooseModels(options, await builtInPersonas());
  if (!models) throw new LanguageModelFailure('noPermissions', `No API key: ${NO_MODEL_HELP}.`);
  return models;
}

/** The personas, and the models when any is set up: without, the MCP server may borrow the client's model. */
export async function availableModels(
  options: ModelOptions,
): Promise<{ readonly personas: readonly PersonaContract[]; readonly models?: CommandModels }> {
  const personas = await builtInPersonas();
  const models = await chooseModels(options, personas);
  return { personas, ...(models ? { models } : {}) };
}

async function chooseModels(
  options: ModelOptions,
  personas: readonly PersonaContract[],
): Promise<CommandModels | undefined> {
  const copilotPrices = (spentBefore = 0) => ({
    limits: { maxRequests: spentBefore + MAX_REQUESTS_PER_RUN },
    prices: new PriceBook(),
    advice: commandLimitAdvice(undefined),
  });
  const copilot = { personas, own: false, prices: new PriceBook(), spending: copilotPrices };
  if (options.given) return { model: options.given, ...copilot };
  if (options.demo === true) return { model: new DemoModel(), ...copilot };
  const chosen = await userModels(options.project, options.modelFlag, personas, MAX_REQUESTS_PER_RUN);
  if (!chosen) return undefined;
  const perRun = chosen.limits.maxRequests ?? MAX_REQUESTS_PER_RUN;
  return {
    personas,
    model: chosen.model,
    ...(chosen.roleModels ? { roleModels: chosen.roleModels } : {}),
    own: true,
    prices: chosen.prices,
    spending: (spentBefore = 0) => ({
      limits: { ...chosen.limits, maxRequests: spentBefore + perRun },
      prices: chosen.prices,
      advice: commandLimitAdvice(chosen.configFile),
    }),
  };
}
