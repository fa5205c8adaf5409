import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { systemClock } from '../core/clock';
import type { CouncilDeps, CouncilOutput } from '../core/council/ports';
import type { SessionLog } from '../core/council/sessionLog';
import { transcriptMarkdown } from '../core/council/wording/transcript';
import { LanguageModelFailure, neverCancelled, type LanguageModel } from '../core/llm/languageModel';
import { PriceBook } from '../core/llm/spending/prices';
import { loadPersonas, type PersonaFile } from '../core/personas/registry';
import type { ClarificationQuestion } from '../core/session/clarification';
import { askCouncil, type QuestionReply } from './askCouncil';
import { DEMO_DECISION, DemoModel } from './demo/demoModel';
import { endpointFromEnvironment, OpenAiCompatibleModel } from './openAiCompatibleModel';
import { SessionFiles } from './sessionFiles';
import { NodeWorkspaceReader } from './nodeWorkspaceReader';
import { recordDecision } from './recordDecision';
import { serveMcp } from './mcp/serveMcp';
import { cliNextStepsText } from './cliNextSteps';
import { sessionNextSteps } from '../core/council/sessionNextSteps';
import { DEEP_WORK_USAGE, deepWorkCommand } from './deepWork/deepWorkCommand';

/* The `council` command: a council session in a terminal, over the core the VS Code doors use. */

const USAGE = `Usage:
  council ask "<decision>" [--model <id>] [--yes] [--json]
  council ask --demo [--yes] [--json]    the demo council: a scripted model, no key, no network
  council sessions
  council sessions show <id>
  council sessions export <id>          the session as Markdown (redirect it: > decision.md)
  council mcp [--demo] [--model <id>]    an MCP server over stdio with Council's four tools
  council record <id> [--yes] [--folder <dir>]   the session's decision as a record in the project's decision folder
${DEEP_WORK_USAGE}

Environment: OPENAI_API_KEY (required for ask), OPENAI_BASE_URL (any OpenAI-compatible endpoint; default OpenAI).
  --model  the model id (default gpt-5-mini)
  --yes    take every recommended answer as a logged assumption; never wait for input
  --json   print the session's result as JSON
  --folder the decision records' folder (default: found from .adr-dir, doc/adr, docs/adr, docs/decisions; else docs/decisions)`;

/** The most requests one session may make: fits a 4-persona, 3-cycle economy council (the extension's default). */
const MAX_REQUESTS = 12;

class UsageError extends Error {}

/** The built-in personas shipped next to the bundle (dist/cli/council.js → personas/). */
async function builtInPersonaFiles(): Promise<readonly PersonaFile[]> {
  const folder = resolve(__dirname, '..', '..', 'personas');
  const names = (await readdir(folder)).filter(name => name.endsWith('.md')).sort();
  return Promise.all(
    names.map(async name => ({ path: `personas/${name}`, text: await readFile(join(folder, name), 'utf8') })),
  );
}

/** Progress lines go to stderr so stdout carries only the answer (or the JSON). */
function terminalOutput(json: boolean): CouncilOutput {
  const print = (text: string) => {
    if (!json) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  return { progress: message => process.stderr.write(`… ${message}\n`), markdown: print, visible: print };
}

/** Puts one question to the terminal: Enter accepts the recommended answer, `s` skips, anything else answers. */
function terminalQuestions(): { ask: (question: ClarificationQuestion) => Promise<QuestionReply>; close(): void } {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  return {
    async ask(question) {
      const recommended = question.recommendedAnswer ? `\n  Recommended: ${question.recommendedAnswer}` : '';
      const reply = (
        await terminal.question(
          `\n? ${question.question}${recommended}\n  [Enter] accept the recommended answer · [s] skip · or type your answer\n> `,
        )
      ).trim();
      if (reply === '') return { kind: 'accept' };
      if (reply.toLowerCase() === 's') return { kind: 'skip' };
      return { kind: 'answer', text: reply };
    },
    close: () => terminal.close(),
  };
}

/** The typed result `--json` prints. */
function sessionJson(log: SessionLog, file: string) {
  const context = log.snapshot.context;
  return {
    sessionId: log.sessionId,
    state: log.state,
    decision: context.requestText,
    council: context.participants.filter(p => p.type === 'persona').map(p => p.name),
    questions: context.questions.map(q => ({
      question: q.question,
      recommendedAnswer: q.recommendedAnswer ?? null,
      status: q.status,
      answer: context.answers.find(a => a.questionId === q.questionId && !a.skipCommand)?.answer ?? null,
    })),
    assumptions: context.assumptionLog.filter(a => !a.withdrawal).map(a => a.assumption),
    debateCycles: context.debateCycles,
    answer: context.finalAnswer ?? null,
    spent: log.spent,
    file,
  };
}

async function ask(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      demo: { type: 'boolean' },
    },
  });
  const demo = values.demo === true;
  const decision = positionals.join(' ').trim() || (demo ? DEMO_DECISION : '');
  if (!decision) throw new UsageError('council ask needs the decision: council ask "Should we …?"');
  const chat =
    model ??
    (demo
      ? new DemoModel()
      : new OpenAiCompatibleModel(endpointFromEnvironment(process.env, values.model ?? 'gpt-5-mini')));
  const json = values.json === true;
  const interactive = values.yes !== true && process.stdin.isTTY === true;
  const files = new SessionFiles(project);
  const registry = await loadPersonas({ builtIn: { list: builtInPersonaFiles } });
  const deps: CouncilDeps = {
    model: chat,
    personas: registry.personas,
    clock: systemClock,
    ids: { next: randomUUID },
    output: terminalOutput(json),
    token: neverCancelled,
    persist: stored => files.save(stored),
    // The project's earlier decision records, as precedent (read-only, no model request).
    decisions: { reader: new NodeWorkspaceReader(project) },
    spending: { limits: { maxRequests: MAX_REQUESTS }, prices: new PriceBook() },
  };
  const terminal = interactive ? terminalQuestions() : undefined;
  try {
    const log = await askCouncil({ decision, deps, ...(terminal ? { ask: terminal.ask } : {}) });
    const file = join(project, '.council', 'sessions', `${log.sessionId}.json`);
    if (json) process.stdout.write(`${JSON.stringify(sessionJson(log, file), null, 2)}\n`);
    else process.stderr.write(`\nSaved: ${file}\n${cliNextStepsText(sessionNextSteps(log.snapshot))}`);
    return log.state === 'completed' ? 0 : 1;
  } finally {
    terminal?.close();
  }
}

async function sessions(args: readonly string[], project: string): Promise<number> {
  const files = new SessionFiles(project);
  // `export` prints the same Markdown transcript the extension exports (core/council/wording/transcript.ts).
  if (args[0] === 'show' || args[0] === 'export') {
    const id = args[1];
    if (!id) throw new UsageError(`council sessions ${args[0]} needs a session id (council sessions lists them).`);
    const found = await files.read(id);
    if (!found) throw new UsageError(`No session ${id} in ${join(project, '.council', 'sessions')}.`);
    if (found.kind === 'unreadable') throw new UsageError(`Session ${id} cannot be read: ${found.error}`);
    process.stdout.write(transcriptMarkdown(found.log.snapshot, found.log.stored.spending ?? []));
    return 0;
  }
  if (args.length > 0) throw new UsageError(`Unknown: council sessions ${args.join(' ')}`);
  const all = await files.list();
  if (all.length === 0) process.stdout.write('No council sessions saved in this folder yet.\n');
  for (const file of all) {
    const line =
      file.kind === 'found'
        ? `${file.sessionId}  ${file.log.snapshot.context.createdAt.slice(0, 16)}  ${file.log.state.padEnd(10)}  ${file.log.snapshot.context.requestText.replace(/\s+/g, ' ').slice(0, 70)}`
        : `${file.sessionId}  unreadable: ${file.error}`;
    process.stdout.write(`${line}\n`);
  }
  return 0;
}

/** Shows the record, then asks on the terminal whether to write it (no terminal and no --yes: never written). */
async function confirmOnTerminal(draft: string, path: string, supersedes: string | undefined): Promise<boolean> {
  process.stdout.write(`${draft}\n`);
  if (process.stdin.isTTY !== true) {
    process.stderr.write('Not written: no terminal to confirm on. Run it again with --yes to write it.\n');
    return false;
  }
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await terminal.question(
      `\nWrite ${path} (status proposed)${supersedes ? ` and mark ${supersedes} superseded` : ''}? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    terminal.close();
  }
}

async function record(args: readonly string[], project: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { yes: { type: 'boolean' }, folder: { type: 'string' } },
  });
  const id = positionals[0];
  if (!id) throw new UsageError('council record needs a session id (council sessions lists them).');
  const found = await new SessionFiles(project).read(id);
  if (!found) throw new UsageError(`No session ${id} in ${join(project, '.council', 'sessions')}.`);
  if (found.kind === 'unreadable') throw new UsageError(`Session ${id} cannot be read: ${found.error}`);
  const confirm = values.yes === true ? async () => true : confirmOnTerminal;
  const outcome = await recordDecision(project, found.log, confirm, {
    ...(values.folder ? { folder: values.folder } : {}),
  });
  process.stderr.write(`${outcome.message}\n`);
  return outcome.written ? 0 : 1;
}

/** `council mcp`: serves until the client closes stdin. */
async function mcp(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { model: { type: 'string' }, demo: { type: 'boolean' } },
  });
  const configured =
    model ??
    (values.demo === true
      ? new DemoModel()
      : process.env.OPENAI_API_KEY?.trim()
        ? new OpenAiCompatibleModel(endpointFromEnvironment(process.env, values.model ?? 'gpt-5-mini'))
        : undefined);
  const registry = await loadPersonas({ builtIn: { list: builtInPersonaFiles } });
  await serveMcp({
    project,
    ...(configured ? { model: configured } : {}),
    noModelHelp:
      "Configure one: set OPENAI_API_KEY (and OPENAI_BASE_URL for any OpenAI-compatible endpoint, e.g. Ollama or LM Studio) in the server's environment, and --model <id>; or start the server with --demo for the scripted demo council. A client that offers MCP sampling lends its own model instead.",
    personas: registry.personas,
    spending: { limits: { maxRequests: MAX_REQUESTS }, prices: new PriceBook() },
  });
  return 0;
}

/** Runs one command; returns the exit code. */
export async function main(argv: readonly string[], project = process.cwd(), model?: LanguageModel): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'ask') return await ask(rest, project, model);
    if (command === 'sessions') return await sessions(rest, project);
    if (command === 'record') return await record(rest, project);
    if (command === 'mcp') return await mcp(rest, project, model);
    if (command === 'plan' || command === 'workflow') return await deepWorkCommand(command, rest, project, model);
    if (command === undefined || command === 'help' || command === '--help') {
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`Unknown command "${command}".`);
  } catch (error) {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    // The endpoint's failures already say what to do here; the chat's wording would point at VS Code.
    else if (error instanceof LanguageModelFailure) process.stderr.write(`council: ${error.message}\n`);
    else process.stderr.write(`council: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then(code => (process.exitCode = code));
