import { ActionableError } from '../../actionableError';
import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { SpendingGovernor } from '../../llm/spending/governor';
import { streamText } from '../../llm/textReply';
import type { UsageMeter } from '../../llm/usage';
import type { WorkspaceReader } from '../../pipeline/workspace/workspaceReader';
import type { HostFunction, JsonValue, ScriptFailure, ScriptSandbox } from '../sandbox/scriptSandbox';
import { deliverableHelpers, type DeliverableContents } from './scriptHelpers';
import type { WorkflowContext } from './workflowContext';

/** Which script of which phase of which file: every script message names all three. */
export interface ScriptSite {
  readonly source: string;
  readonly phase: string;
  /** e.g. `main agent script`, `adaptive script`, `gap check`, `checkpoint condition`. */
  readonly role: string;
}

/** A workflow script that did not give a usable value; the run stops here and can be resumed after a fix. */
export class WorkflowScriptError extends ActionableError {
  constructor(
    readonly site: ScriptSite,
    readonly failure: ScriptFailure | { readonly kind: 'result'; readonly message: string },
  ) {
    super(
      `${site.source}, phase \`${site.phase}\`, ${site.role}${'line' in failure && failure.line ? ` (line ${failure.line})` : ''}: ${failure.message} Fix the workflow file, then resume the run.`,
    );
    this.name = 'WorkflowScriptError';
  }
}

/** What one script may spend: `thinkHard` calls and their tokens, and calls to the host of any kind. */
export interface ScriptLimits {
  readonly maxModelCalls: number;
  readonly maxTokens: number;
  readonly maxHostCalls: number;
}

/** The defaults of `council.budget.script*`. */
export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { maxModelCalls: 20, maxTokens: 200_000, maxHostCalls: 5_000 };

/** What scripts may reach: nothing else crosses into the sandbox. */
export interface ScriptHost {
  readonly sandbox: ScriptSandbox;
  readonly model: LanguageModel;
  /** The run's spending governor: each script spends from a child scope of it with `limits`. Absent: no limits. */
  readonly spending?: SpendingGovernor;
  readonly limits?: ScriptLimits;
  readonly reader: WorkspaceReader;
  readonly token: CancellationSignal;
  readonly usage: UsageMeter;
  readonly outputFolder: string;
  /** Writes under the run folder and records the deliverable; returns the workspace-relative path. */
  readonly writeFile: (path: string, content: string) => Promise<string>;
  readonly contents: () => DeliverableContents;
  readonly onScriptRun?: (site: ScriptSite, cpuMs: number) => void;
}

/** The longest prompt a script may send (a whole-file dump by mistake is refused, not paid for). */
const MAX_THINK_CHARS = 200_000;
/** Lines `readFile` returns at most; the same bound the pipeline's reader tools use per read. */
const MAX_READ_LINES = 2_000;

function text(value: JsonValue | undefined, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} must be a string.`);
  return value;
}

function hostFunctions(host: ScriptHost): Record<string, HostFunction> {
  return {
    ...deliverableHelpers(host.contents(), host.outputFolder),
    thinkHard: async prompt => {
      const ask = text(prompt, 'thinkHard(prompt): prompt');
      if (ask.length > MAX_THINK_CHARS)
        throw new Error(`thinkHard: the prompt has ${ask.length} characters; at most ${MAX_THINK_CHARS} are sent.`);
      return streamText(host.model, [{ role: 'user', content: ask }], host.token, host.usage);
    },
    readFile: async path => {
      const file = text(path, 'readFile(path): path').trim();
      if (file.startsWith('/') || /^[a-zA-Z]:/.test(file) || file.split(/[\\/]/).includes('..')) {
        throw new Error(`readFile: \`${file}\` is outside the workspace; use a workspace-relative path.`);
      }
      // The run's own files first (they are under the run folder, which the workspace reader may not list).
      const own = host.contents().get(file) ?? host.contents().get(`${host.outputFolder}/${file}`);
      if (own !== undefined) return own;
      const range = await host.reader.readRange(file, 1, MAX_READ_LINES, host.token);
      if (!range) throw new Error(`readFile: there is no file \`${file}\` in the workspace.`);
      return range.text;
    },
    writeFile: async (path, content) =>
      host.writeFile(text(path, 'writeFile(path, content): path'), text(content, 'writeFile(path, content): content')),
  };
}

/** Runs one script with the host API; a failure becomes a WorkflowScriptError naming the site. */
export async function runWorkflowScript(
  host: ScriptHost,
  site: ScriptSite,
  mode: 'body' | 'expression',
  code: string,
  context: WorkflowContext,
  globals: Readonly<Record<string, JsonValue>> = {},
): Promise<JsonValue> {
  const outcome = await host.sandbox.run({
    mode,
    code,
    globals: {
      context: context as unknown as JsonValue,
      deliverables: context.deliverables as unknown as JsonValue,
      ...globals,
    },
    functions: hostFunctions(host),
    signal: host.token,
  });
  host.onScriptRun?.(site, outcome.cpuMs);
  if (!outcome.ok) throw new WorkflowScriptError(site, outcome.failure);
  return outcome.value;
}

/** A condition's value as a boolean (spec 002: a JS expression; a body with `return` works too). */
export async function evaluateCondition(
  host: ScriptHost,
  site: ScriptSite,
  condition: string,
  context: WorkflowContext,
): Promise<boolean> {
  const mode = /\breturn\b/.test(condition) ? 'body' : 'expression';
  return Boolean(await runWorkflowScript(host, site, mode, condition, context));
}
