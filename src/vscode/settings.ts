import * as vscode from 'vscode';
import { PersonaIdSchema } from '../core/personas/contract';
import { DEBATE_PROTOCOLS, type DebateProtocol } from '../core/council/protocol';
import type { SpendingLimits } from '../core/llm/spending/governor';
import { parseModelPrice, type ModelPrice } from '../core/llm/spending/prices';
import { DEFAULT_SCRIPT_SPEND_LIMITS, type ScriptSpendLimits } from '../core/workflow/engine/scriptSpending';
import { DEFAULT_DEBATE_CYCLE_LIMIT, MAX_CLARIFICATION_ROUNDS, SessionLimits } from '../core/session/limits';

/** The configuration section every Council setting lives under (`contributes.configuration` in package.json). */
export const COUNCIL_SECTION = 'council';

/** Setting keys relative to `council.`; package.json declares the same names. */
export const SETTING = {
  maxRounds: 'clarification.maxRounds',
  maxCycles: 'debate.maxCycles',
  adminMaxCycles: 'debate.adminMaxCycles',
  defaultPersonas: 'personas.default',
  useWorkspacePersonas: 'personas.useWorkspacePersonas',
  groundInWorkspace: 'personas.groundInWorkspace',
  protocol: 'debate.protocol',
  maxRequests: 'budget.maxRequests',
  maxCredits: 'budget.maxCredits',
  runMaxCredits: 'budget.runMaxCredits',
  runMaxRequests: 'budget.runMaxRequests',
  scriptMaxModelCalls: 'budget.scriptMaxModelCalls',
  scriptMaxTokens: 'budget.scriptMaxTokens',
  scriptMaxHostCalls: 'budget.scriptMaxHostCalls',
  prices: 'pricing.models',
  personaModel: 'models.personas',
  synthesisModel: 'models.synthesis',
  diverseModels: 'models.diverse',
  defaultModel: 'models.default',
  decisionsFolder: 'decisions.folder',
} as const;

/**
 * Every setting that changes what Council spends (how many requests, on which model, at what price): each is in
 * package.json's `restrictedConfigurations`, so a workspace in Restricted Mode cannot raise the spend.
 */
export const COST_SETTINGS: readonly string[] = [
  SETTING.maxRounds,
  SETTING.maxCycles,
  SETTING.protocol,
  SETTING.defaultPersonas,
  SETTING.groundInWorkspace,
  SETTING.maxRequests,
  SETTING.maxCredits,
  SETTING.runMaxCredits,
  SETTING.runMaxRequests,
  SETTING.scriptMaxModelCalls,
  SETTING.scriptMaxTokens,
  SETTING.scriptMaxHostCalls,
  SETTING.prices,
  SETTING.personaModel,
  SETTING.synthesisModel,
  SETTING.diverseModels,
  SETTING.defaultModel,
];

/** The default of `council.budget.maxRequests`: fits a 4-persona, 3-cycle economy council. */
const DEFAULT_MAX_REQUESTS = 12;
/** Defaults of the other spending limits (package.json declares the same). */
const DEFAULT_SPENDING = {
  maxCredits: 40,
  runMaxCredits: 100,
  runMaxRequests: 60,
  scriptMaxModelCalls: DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls,
  scriptMaxTokens: DEFAULT_SCRIPT_SPEND_LIMITS.maxTokens,
  scriptMaxHostCalls: DEFAULT_SCRIPT_SPEND_LIMITS.maxHostCalls,
} as const;

/** Every limit on spending, per scope, and the user's prices. */
export interface SpendingSettings {
  /** One council session, over all its turns. */
  readonly session: SpendingLimits;
  /** One `/plan` or `/workflow` run. */
  readonly run: SpendingLimits;
  /** One workflow script. */
  readonly script: ScriptSpendLimits;
  /** `council.pricing.models`: the user's prices, over the defaults. */
  readonly prices: Readonly<Record<string, ModelPrice>>;
}

/** Council's settings as a session uses them: valid limits, and what had to be fixed to get there. */
export interface CouncilSettings {
  readonly limits: SessionLimits;
  /** Persona ids to fall back on when selection cannot decide; kebab-case, without repeats. */
  readonly defaultPersonaIds: readonly string[];
  /** Whether `.council/personas/*.md` may add or override personas (still only in a trusted workspace). */
  readonly useWorkspacePersonas: boolean;
  /** Whether personas may read workspace files while drafting even without attached context (still only in a trusted workspace). */
  readonly groundInWorkspace: boolean;
  /** How the council debates (`council.debate.protocol`). */
  readonly protocol: DebateProtocol;
  /** What sessions, runs and scripts may spend, and the prices they are counted at. */
  readonly spending: SpendingSettings;
  /** Model selectors (`vendor/family`, family or id) for the personas and the synthesis; empty: the chat's model. */
  readonly personaModel: string;
  readonly synthesisModel: string;
  /** `council.models.diverse`: seat personas without a model of their own on different model families. */
  readonly diverseModels: boolean;
  /** `council.models.default`: the model Council's tools run on (a tool call carries none); empty: the rule's fallbacks. */
  readonly defaultModel: string;
  /** `council.decisions.folder`: where the team's decision records are; empty: Council finds them. */
  readonly decisionsFolder?: string;
  /** One sentence per value that was invalid and replaced, naming the setting; empty when all were fine. */
  readonly problems: readonly string[];
}

/** The settings reader's only dependency: `vscode.WorkspaceConfiguration`'s `get`. */
export type ConfigurationReader = Pick<vscode.WorkspaceConfiguration, 'get'>;

/**
 * Reads `council.*` and returns values a session can run with: out-of-range numbers are clamped,
 * wrong types fall back to the default, `debate.maxCycles` is lowered to `debate.adminMaxCycles`.
 * Never throws; every fix is described in `problems`.
 */
export function readCouncilSettings(
  configuration: ConfigurationReader = vscode.workspace.getConfiguration(COUNCIL_SECTION),
): CouncilSettings {
  const problems: string[] = [];
  const maxClarificationRounds = readInteger(
    configuration,
    SETTING.maxRounds,
    MAX_CLARIFICATION_ROUNDS,
    1,
    MAX_CLARIFICATION_ROUNDS,
    problems,
  );
  const adminMaxDebateCycles = readInteger(
    configuration,
    SETTING.adminMaxCycles,
    DEFAULT_DEBATE_CYCLE_LIMIT,
    1,
    Infinity,
    problems,
  );
  let debateCycleLimit = readInteger(
    configuration,
    SETTING.maxCycles,
    DEFAULT_DEBATE_CYCLE_LIMIT,
    1,
    Infinity,
    problems,
  );
  if (debateCycleLimit > adminMaxDebateCycles) {
    problems.push(
      `${name(SETTING.maxCycles)} is ${debateCycleLimit}, above ${name(SETTING.adminMaxCycles)} (${adminMaxDebateCycles}); using ${adminMaxDebateCycles}.`,
    );
    debateCycleLimit = adminMaxDebateCycles;
  }
  return {
    limits: SessionLimits.parse({ maxClarificationRounds, debateCycleLimit, adminMaxDebateCycles }),
    defaultPersonaIds: readPersonaIds(configuration, problems),
    useWorkspacePersonas: readBoolean(configuration, SETTING.useWorkspacePersonas, true, problems),
    groundInWorkspace: readBoolean(configuration, SETTING.groundInWorkspace, false, problems),
    protocol: readProtocol(configuration, problems),
    spending: readSpending(configuration, problems),
    personaModel: readText(configuration, SETTING.personaModel, problems),
    synthesisModel: readText(configuration, SETTING.synthesisModel, problems),
    diverseModels: readBoolean(configuration, SETTING.diverseModels, false, problems),
    defaultModel: readText(configuration, SETTING.defaultModel, problems),
    decisionsFolder: readFolder(configuration, SETTING.decisionsFolder, problems),
    problems,
  };
}

function readSpending(configuration: ConfigurationReader, problems: string[]): SpendingSettings {
  // 0 turns a limit off; a script's caps cannot be turned off.
  // Credits may be fractional (2.5 credits = $0.025); requests are whole.
  const limit = (key: string, fallback: number, whole: boolean) =>
    readNumber(configuration, key, fallback, problems, whole) || undefined;
  const count = (key: string, fallback: number, min: number) =>
    readInteger(configuration, key, fallback, min, Infinity, problems);
  return {
    session: {
      maxCredits: limit(SETTING.maxCredits, DEFAULT_SPENDING.maxCredits, false),
      maxRequests: limit(SETTING.maxRequests, DEFAULT_MAX_REQUESTS, true),
    },
    run: {
      maxCredits: limit(SETTING.runMaxCredits, DEFAULT_SPENDING.runMaxCredits, false),
      maxRequests: limit(SETTING.runMaxRequests, DEFAULT_SPENDING.runMaxRequests, true),
    },
    script: {
      maxModelCalls: count(SETTING.scriptMaxModelCalls, DEFAULT_SPENDING.scriptMaxModelCalls, 1),
      maxTokens: count(SETTING.scriptMaxTokens, DEFAULT_SPENDING.scriptMaxTokens, 1_000),
      maxHostCalls: count(SETTING.scriptMaxHostCalls, DEFAULT_SPENDING.scriptMaxHostCalls, 1),
    },
    prices: readPrices(configuration, problems),
  };
}

/** A number of at least 0 (credits may have decimals; request counts are rounded). */
function readNumber(
  configuration: ConfigurationReader,
  key: string,
  fallback: number,
  problems: string[],
  whole: boolean,
): number {
  if (whole) return readInteger(configuration, key, fallback, 0, Infinity, problems);
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    problems.push(`${name(key)} must be a number of at least 0, got ${JSON.stringify(value)}; using ${fallback}.`);
    return fallback;
  }
  return value;
}

function readPrices(configuration: ConfigurationReader, problems: string[]): Readonly<Record<string, ModelPrice>> {
  const value = configuration.get<unknown>(SETTING.prices);
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${name(SETTING.prices)} must be an object of model prices; ignoring it.`);
    return {};
  }
  const prices: Record<string, ModelPrice> = {};
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const price = parseModelPrice(entry);
    if (price === undefined)
      problems.push(
        `${name(SETTING.prices)}: the price of "${model}" must be 0 or { "input": dollars, "output": dollars } per million tokens, got ${JSON.stringify(entry)}; ignoring it.`,
      );
    else prices[model] = price;
  }
  return prices;
}

function name(key: string): string {
  return `${COUNCIL_SECTION}.${key}`;
}

function readInteger(
  configuration: ConfigurationReader,
  key: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.push(`${name(key)} must be a whole number, got ${JSON.stringify(value)}; using ${fallback}.`);
    return fallback;
  }
  const clamped = Math.min(max, Math.max(min, Math.round(value)));
  if (clamped !== value) {
    const range = max === Infinity ? `at least ${min}` : `between ${min} and ${max}`;
    problems.push(`${name(key)} must be a whole number ${range}, got ${value}; using ${clamped}.`);
  }
  return clamped;
}

function readBoolean(configuration: ConfigurationReader, key: string, fallback: boolean, problems: string[]): boolean {
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  problems.push(`${name(key)} must be true or false, got ${JSON.stringify(value)}; using ${fallback}.`);
  return fallback;
}

function readPersonaIds(configuration: ConfigurationReader, problems: string[]): readonly string[] {
  const value = configuration.get<unknown>(SETTING.defaultPersonas);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(
      `${name(SETTING.defaultPersonas)} must be a list of persona ids, got ${JSON.stringify(value)}; ignoring it.`,
    );
    return [];
  }
  const ids = new Set<string>();
  for (const item of value as readonly unknown[]) {
    const id = typeof item === 'string' ? item.trim() : item;
    if (PersonaIdSchema.safeParse(id).success) ids.add(id as string);
    else
      problems.push(
        `${name(SETTING.defaultPersonas)}: ${JSON.stringify(item)} is not a persona id such as "security-expert"; ignoring it.`,
      );
  }
  return [...ids];
}

function readProtocol(configuration: ConfigurationReader, problems: string[]): DebateProtocol {
  const value = configuration.get<unknown>(SETTING.protocol);
  if (value === undefined || value === null) return 'economy';
  if ((DEBATE_PROTOCOLS as readonly unknown[]).includes(value)) return value as DebateProtocol;
  problems.push(
    `${name(SETTING.protocol)} must be one of ${DEBATE_PROTOCOLS.map(p => `"${p}"`).join(', ')}, got ${JSON.stringify(value)}; using "economy".`,
  );
  return 'economy';
}

function readFolder(configuration: ConfigurationReader, key: string, problems: string[]): string {
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null || typeof value === 'string') return (value ?? '').trim();
  problems.push(
    `${name(key)} must be a workspace-relative folder such as "docs/adr", got ${JSON.stringify(value)}; Council finds the folder itself.`,
  );
  return '';
}

function readText(configuration: ConfigurationReader, key: string, problems: string[]): string {
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  problems.push(
    `${name(key)} must be text such as "copilot/gpt-4.1", got ${JSON.stringify(value)}; using the chat's model.`,
  );
  return '';
}
