import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { fieldOf, Issues } from '../../core/workflow/definition/workflowIssues';
import type { Path } from '../../core/zodIssues';
import { CONFIG_SCHEMA_FILE, CouncilConfig, PROVIDER_TYPES, type ModelReference } from './councilConfig';

/*
 * Finds and reads the config file. A file that does not parse, has an unknown field or provider, or holds a key is
 * refused with where (file, line, field) and what to do; nothing is guessed.
 */

/** A config file that cannot be used: its message names the file, the line, the field and the fix. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The files looked at, first found wins: the project's, then the user's. */
function configCandidates(project: string, environment: Readonly<Record<string, string | undefined>>): string[] {
  const userConfig = environment.XDG_CONFIG_HOME?.trim() || join(environment.HOME?.trim() || homedir(), '.config');
  return [join(project, '.council', 'config.json'), join(userConfig, 'council', 'config.json')];
}

export interface FoundConfig {
  readonly file: string;
  readonly config: CouncilConfig;
}

/** The first config file found, checked; undefined when there is none. */
export async function loadConfig(
  project: string,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<FoundConfig | undefined> {
  for (const file of configCandidates(project, environment)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ConfigError(`${file}: cannot be read (${(error as Error).message}).`);
    }
    return { file, config: parseConfig(text, file) };
  }
  return undefined;
}

/** Key-shaped values (OpenAI, Anthropic, Google, GitHub, OpenRouter): refused wherever they appear. */
const KEY_SHAPE = /^(sk-|sk-ant-|AIza|ghp_|github_pat_|gho_|sk-or-)[A-Za-z0-9_-]{12,}/;
/** Field names that would hold a key. */
const KEY_FIELDS = /^(api[-_]?key|key|token|secret|password|authorization)$/i;

const FIX = `See ${CONFIG_SCHEMA_FILE} (and the README's "Config file" section) for the fields.`;

/** The checked config from the file's text; `file` names it in messages. */
export function parseConfig(text: string, file: string): CouncilConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(
      `${file}${jsonErrorPlace(text, error)}: not valid JSON (${(error as Error).message}). Fix the JSON and run again.`,
    );
  }
  const lines = new LineCounter();
  const issues = new Issues(parseDocument(text, { lineCounter: lines }), lines);
  const at = (path: Path) => {
    const place = issues.locate(path);
    return `${file}${place ? `:${place.line}:${place.column}` : ''}: ${fieldOf(path)}`;
  };
  const secret = findKey(raw, []);
  if (secret) {
    throw new ConfigError(
      `${at(secret)}: a key does not belong in the config file (it is read by anyone who can read the file, and committed with the project). Remove it, put the key in an environment variable, and name that variable with "apiKeyEnv", e.g. "apiKeyEnv": "ANTHROPIC_API_KEY".`,
    );
  }
  const parsed = CouncilConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(issueText(issue, at));
  }
  const config = parsed.data;
  for (const [name, provider] of Object.entries(config.providers)) {
    if (provider.type === 'copilot' && (provider.apiKeyEnv ?? provider.baseUrl)) {
      const field = provider.apiKeyEnv ? 'apiKeyEnv' : 'baseUrl';
      throw new ConfigError(
        `${at(['providers', name, field])}: a copilot provider takes no "${field}": it runs on the account Copilot CLI is logged in with (\`copilot login\`). Remove the field.`,
      );
    }
    if (provider.type !== 'copilot' && provider.cliPath) {
      throw new ConfigError(
        `${at(['providers', name, 'cliPath'])}: "cliPath" is for a copilot provider only (the Copilot CLI executable). Remove it.`,
      );
    }
    if (provider.type === 'openai-compatible' && !provider.baseUrl) {
      throw new ConfigError(
        `${at(['providers', name])}: an openai-compatible provider needs "baseUrl", e.g. "http://localhost:11434/v1" for Ollama or "http://localhost:1234/v1" for LM Studio.`,
      );
    }
  }
  for (const [path, reference] of modelReferences(config)) {
    const provider = typeof reference === 'string' ? reference.slice(0, reference.indexOf(':')) : reference.provider;
    if (!(provider in config.providers)) {
      const known = Object.keys(config.providers);
      throw new ConfigError(
        `${at(path)}: names the provider "${provider}", which "providers" does not define (${known.length > 0 ? `it has ${known.map(k => `"${k}"`).join(', ')}` : 'it is empty'}). Add it to "providers" or use one of those.`,
      );
    }
  }
  return config;
}

/** Every model the config names, with its path. */
function modelReferences(config: CouncilConfig): [Path, ModelReference][] {
  const { models } = config;
  return [
    [['models', 'default'], models.default] as [Path, ModelReference],
    ...(models.opening ? [[['models', 'opening'], models.opening] as [Path, ModelReference]] : []),
    ...(models.answer ? [[['models', 'answer'], models.answer] as [Path, ModelReference]] : []),
    ...Object.entries(models.seats ?? {}).map(
      ([seat, ref]) => [['models', 'seats', seat], ref] as [Path, ModelReference],
    ),
  ];
}

/** The first key-shaped field or value in the file, by path. */
function findKey(value: unknown, path: Path): Path | undefined {
  if (typeof value === 'string') return KEY_SHAPE.test(value.trim()) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findKey(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (KEY_FIELDS.test(key) && typeof item === 'string' && item.trim() !== '') return [...path, key];
    const found = findKey(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** One zod issue as "file:line:col: field: what is wrong. What to do." */
function issueText(issue: z.core.$ZodIssue, at: (path: Path) => string): string {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return `${at([...path, key])}: unknown field "${key}". Remove it or fix its spelling. ${FIX}`;
  }
  if (path.length === 3 && path[0] === 'providers' && path[2] === 'type') {
    return `${at(path)}: unknown provider type; use one of ${PROVIDER_TYPES.map(t => `"${t}"`).join(', ')} (any OpenAI-compatible endpoint, such as Ollama or LM Studio, is "openai-compatible" with a "baseUrl").`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `${at(path)}: missing; it is required. ${FIX}`;
  }
  return `${at(path)}: ${issue.message}. ${FIX}`;
}

/** ":line:column" of a JSON.parse error, when its message gives the position. */
function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `:${lineColumn[1]}:${lineColumn[2]}`;
  const position = /position (\d+)/.exec(message);
  if (!position) return '';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return `:${line}:${before.length - before.lastIndexOf('\n')}`;
}
