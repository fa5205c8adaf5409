import type { RoleModels } from '../../core/council/ports';
import type { LanguageModel } from '../../core/llm/languageModel';
import type { SpendingLimits } from '../../core/llm/spending/governor';
import type { CouncilConfig, ModelReference } from '../config/councilConfig';
import { ConfigError, loadConfig } from '../config/loadConfig';
import { DollarPriceBook } from '../prices/dollarPrices';
import { environmentModel } from './environmentModel';
import { providerModel, type ModelSpec } from './providerModels';
import { SeatModels } from './seatModels';

/*
 * The `council` command's models: the config file's (a model per seat, the opening and the answer), else the one
 * the environment and `--model` choose; priced in dollars, within the config's limits.
 */

type Environment = Readonly<Record<string, string | undefined>>;

export interface CliModels {
  /** The opening's model (choosing the council, the questions): CouncilDeps.model. */
  readonly model: LanguageModel;
  /** The seats' and the answer's models when the config names any; absent: `model` for everything. */
  readonly roleModels?: RoleModels;
  readonly prices: DollarPriceBook;
  readonly limits: SpendingLimits;
  /** Where the models came from, for the first progress line: "config /p/.council/config.json". */
  readonly source: string;
  /** The config file the models came from; absent: chosen from the environment. */
  readonly configFile?: string;
}

/**
 * The models for this run; undefined when there is no config file and no provider's key is set. A bad config, an
 * unknown seat or a missing key fails here, before any request.
 */
export async function cliModels(options: {
  readonly project: string;
  readonly environment: Environment;
  readonly modelFlag?: string;
  /** The persona ids a seat may name. */
  readonly personaIds: readonly string[];
  /** Requests one session may make when the config sets no limit. */
  readonly maxRequests: number;
}): Promise<CliModels | undefined> {
  const { environment, modelFlag, maxRequests } = options;
  const found = await loadConfig(options.project, environment);
  if (!found) {
    const spec = environmentModel(environment, modelFlag);
    if (!spec) return undefined;
    return {
      model: providerModel(spec, environment),
      prices: new DollarPriceBook(),
      limits: { maxRequests },
      source: `${spec.providerName} (from the environment), model ${spec.modelId}`,
    };
  }
  const { config, file } = found;
  const unknownSeat = Object.keys(config.models.seats ?? {}).find(id => !options.personaIds.includes(id));
  if (unknownSeat !== undefined) {
    throw new ConfigError(
      `${file}: models.seats.${unknownSeat}: no persona has the id "${unknownSeat}". The ids are ${options.personaIds.map(id => `"${id}"`).join(', ')}.`,
    );
  }
  const built = new Map<string, LanguageModel>();
  const model = (reference: ModelReference): LanguageModel => {
    const spec = modelSpec(config, reference);
    const key = `${spec.providerName}:${spec.modelId}:${spec.maxInputTokens ?? ''}:${spec.toolCalling ?? ''}`;
    const existing = built.get(key);
    if (existing) return existing;
    const created = providerModel(spec, environment);
    built.set(key, created);
    return created;
  };
  const fallback = model(modelFlag ? flagReference(modelFlag, file, config) : config.models.default);
  const seats = new Map(Object.entries(config.models.seats ?? {}).map(([id, ref]) => [id, model(ref)] as const));
  const answer = config.models.answer ? model(config.models.answer) : undefined;
  const maxDollars = config.limits?.maxDollars;
  return {
    model: config.models.opening ? model(config.models.opening) : fallback,
    ...(seats.size > 0 || answer
      ? { roleModels: new SeatModels({ fallback, seats, ...(answer ? { answer } : {}) }) }
      : {}),
    prices: new DollarPriceBook(config.prices ?? {}),
    limits: {
      maxRequests: config.limits?.maxRequests ?? maxRequests,
      // The governor counts cents (1 credit = $0.01).
      ...(maxDollars === undefined ? {} : { maxCredits: maxDollars * 100 }),
    },
    source: `config ${file}`,
    configFile: file,
  };
}

/** With a config, `--model` replaces its default and names the provider too: `<provider>:<model id>`. */
function flagReference(flag: string, file: string, config: CouncilConfig): ModelReference {
  if (!/^[^:\s]+:\S+$/.test(flag)) {
    throw new ConfigError(
      `--model "${flag}": with a config file (${file}), name the provider too: --model <provider>:<model id>, e.g. --model ${Object.keys(config.providers)[0] ?? 'openai'}:${flag}.`,
    );
  }
  return flag;
}

function modelSpec(config: CouncilConfig, reference: ModelReference): ModelSpec {
  const [providerName, modelId, maxInputTokens, toolCalling] =
    typeof reference === 'string'
      ? [reference.slice(0, reference.indexOf(':')), reference.slice(reference.indexOf(':') + 1), undefined, undefined]
      : [reference.provider, reference.model, reference.maxInputTokens, reference.toolCalling];
  // parseConfig has checked every provider name; --model's is checked here.
  const provider = config.providers[providerName];
  if (!provider) {
    throw new ConfigError(
      `--model: the config has no provider "${providerName}" (it has ${Object.keys(config.providers)
        .map(k => `"${k}"`)
        .join(', ')}).`,
    );
  }
  return {
    providerName,
    provider,
    modelId,
    ...(maxInputTokens === undefined ? {} : { maxInputTokens }),
    ...(toolCalling === undefined ? {} : { toolCalling }),
  };
}
