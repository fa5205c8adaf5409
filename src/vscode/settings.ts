import * as vscode from 'vscode';
import { PersonaIdSchema } from '../core/personas/contract';
import { DEBATE_PROTOCOLS, type DebateProtocol } from '../core/council/protocol';
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
  personaModel: 'models.personas',
  synthesisModel: 'models.synthesis',
} as const;

/** The default of `council.budget.maxRequests`: fits a 4-persona, 3-cycle economy council. */
const DEFAULT_MAX_REQUESTS = 12;

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
  /** The most model requests one session may spend; undefined: no limit (`council.budget.maxRequests` 0). */
  readonly maxRequests: number | undefined;
  /** Model selectors (`vendor/family`, family or id) for the personas and the synthesis; empty: the chat's model. */
  readonly personaModel: string;
  readonly synthesisModel: string;
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
    maxRequests:
      readInteger(configuration, SETTING.maxRequests, DEFAULT_MAX_REQUESTS, 0, Infinity, problems) || undefined,
    personaModel: readText(configuration, SETTING.personaModel, problems),
    synthesisModel: readText(configuration, SETTING.synthesisModel, problems),
    problems,
  };
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

function readText(configuration: ConfigurationReader, key: string, problems: string[]): string {
  const value = configuration.get<unknown>(key);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  problems.push(
    `${name(key)} must be text such as "copilot/gpt-4.1", got ${JSON.stringify(value)}; using the chat's model.`,
  );
  return '';
}
