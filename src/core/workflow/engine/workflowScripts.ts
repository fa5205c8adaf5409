import { ActionableError } from '../../actionableError';
import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { SpendingGovernor } from '../../llm/spending/governor';
import { streamText } from '../../llm/textReply';
import { isIgnoredPath, looksBinary } from '../../workspace/pathFilter';
import type { WorkspaceReader } from '../../workspace/workspaceReader';
import type { HostFunction, JsonValue, ScriptFailure, ScriptOutcome, ScriptSandbox } from '../sandbox/scriptSandbox';
import { deliverableHelpers, type DeliverableContents } from './scriptHelpers';
import { DEFAULT_SCRIPT_SPEND_LIMITS, ScriptSpending, type ScriptSpendLimits } from './scriptSpending';
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
    readonly failure: ScriptFailure | { readonly kind: 'result' | 'limit'; readonly message: string },
  ) {
    // A limit's message already says what to do; anything else is the file's to fix.
    const next = failure.kind === 'limit' ? '' : ' Fix the workflow file, then resume the run.';
    super(
      `${site.source}, phase \`${site.phase}\`, ${site.role}${'line' in failure && failure.line ? ` (line ${failure.line})` : ''}: ${failure.message}${next}`,
    );
    this.name = 'WorkflowScriptError';
  }
}

/** What scripts may reach: nothing else crosses into the sandbox. */
export interface ScriptHost {
  readonly sandbox: ScriptSandbox;
  readonly model: LanguageModel;
  /** The run's spending governor: each script spends from a child scope of it with `limits`. */
  readonly spending: SpendingGovernor;
  /** What one script may spend (default: `DEFAULT_SCRIPT_SPEND_LIMITS`). */
  readonly limits?: ScriptSpendLimits;
  readonly reader: WorkspaceReader;
  readonly token: CancellationSignal;
  readonly outputFolder: string;
  /** Writes under the run folder and records the deliverable; returns the workspace-relative path. */
  readonly writeFile: (path: string, content: string) => Promise<string>;
  readonly contents: () => DeliverableContents;
}

/** The longest prompt a script may send (a whole-file dump by mistake is refused, not paid for). */
const MAX_THINK_CHARS = 200_000;
/** Lines `readFile` returns at most; the same bound the pipeline's reader tools use per read. */
const MAX_READ_LINES = 2_000;

function text(value: JsonValue | undefined, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} must be a string.`);
  return value;
}

function hostFunctions(host: ScriptHost, spending: ScriptSpending, site: ScriptSite): Record<string, HostFunction> {
  const model = spending.governor.model(host.model, `script (${site.role})`);
  return {
    ...deliverableHelpers(host.contents(), host.outputFolder),
    thinkHard: async prompt => {
      const ask = text(prompt, 'thinkHard(prompt): prompt');
      if (ask.length > MAX_THINK_CHARS)
        throw new Error(`thinkHard: the prompt has ${ask.length} characters; at most ${MAX_THINK_CHARS} are sent.`);
      return streamText(model, [{ role: 'user', content: ask }], spending.signal);
    },
    readFile: async path => {
      const file = text(path, 'readFile(path): path').trim();
      if (file.startsWith('/') || /^[a-zA-Z]:/.test(file) || file.split(/[\\/]/).includes('..')) {
        throw new Error(`readFile: \`${file}\` is outside the workspace; use a workspace-relative path.`);
      }
      // The run's own files first (they are under the run folder, which the workspace reader may not list).
      const own = host.contents().get(file) ?? host.contents().get(`${host.outputFolder}/${file}`);
      if (own !== undefined) return own;
      // The agents' rule for what may be read: dependency, VCS and build folders and binary files are not.
      const refused = `readFile: \`${file}\` is ignored (dependencies, VCS data or build output) or binary; workflows read what agents may read.`;
      if (isIgnoredPath(file) || looksBinary(file)) throw new Error(refused);
      // A read is local and bounded: one the script left running ends (and is awaited) rather than being cancelled
      // at the script's end, so a read that fails is reported even when the script never awaited it.
      const range = await host.reader.readRange(file, 1, MAX_READ_LINES, host.token);
      if (!range) throw new Error(`readFile: there is no file \`${file}\` in the workspace.`);
      if (looksBinary(file, range.text)) throw new Error(refused);
      return range.text;
    },
    writeFile: async (path, content) =>
      host.writeFile(text(path, 'writeFile(path, content): path'), text(content, 'writeFile(path, content): content')),
  };
}

/**
 * Runs one script with the host API; a failure becomes a WorkflowScriptError naming the site. What the script
 * started is over when this returns; a limit reached by any of its calls fails it (the run's own budget stops the
 * run as any budget stop does).
 */
export async function runWorkflowScript(
  host: ScriptHost,
  site: ScriptSite,
  mode: 'body' | 'expression',
  code: string,
  context: WorkflowContext,
  globals: Readonly<Record<string, JsonValue>> = {},
): Promise<JsonValue> {
  const spending = new ScriptSpending(host.limits ?? DEFAULT_SCRIPT_SPEND_LIMITS, host.token, host.spending);
  let outcome: ScriptOutcome;
  let closed: Awaited<ReturnType<ScriptSpending['close']>> = { failed: [] };
  try {
    outcome = await host.sandbox.run({
      mode,
      code,
      globals: {
        context: context as unknown as JsonValue,
        deliverables: context.deliverables as unknown as JsonValue,
        ...globals,
      },
      functions: spending.guard(hostFunctions(host, spending, site)),
      signal: host.token,
    });
  } finally {
    closed = await spending.close();
  }
  const { refusal, failed } = closed;
  if (refusal && !spending.isOwn(refusal)) throw refusal;
  if (refusal) throw new WorkflowScriptError(site, { kind: 'limit', message: refusal.message });
  if (!outcome.ok) throw new WorkflowScriptError(site, outcome.failure);
  // A call that failed while the script never looked at it would be lost: the script fails with it instead.
  const lost = failed.find(call => outcome.ok && outcome.unobservedCalls?.includes(call.call));
  if (lost)
    throw new WorkflowScriptError(site, {
      kind: 'thrown',
      message: `${lost.name}() failed and the script did not await it: ${lost.message}. Await the call (in a try/catch to go on without it).`,
    });
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
