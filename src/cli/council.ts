import { LanguageModelFailure, type LanguageModel } from '../core/llm/languageModel';
import { costsInDollars, showCostsIn } from '../core/llm/spending/spendText';
import { ask } from './commands/ask';
import { evaluate } from './commands/eval';
import { mcp } from './commands/mcp';
import { record } from './commands/record';
import { resume, RESUME_ACTIONS, type ResumeAction } from './commands/resume';
import { sessions } from './commands/sessions';
import { UsageError } from './commands/usageError';
import { DEEP_WORK_USAGE, deepWorkCommand } from './deepWork/deepWorkCommand';

/* The `council` command: a council session in a terminal, over the core the VS Code doors use. One subcommand a file. */

const USAGE = `Usage:
  council ask "<decision>" [--model <id>] [--cycles <n>] [--yes] [--json]
  council ask --demo [--yes] [--json]    the demo council: a scripted model, no key, no network
  council retry <id> [--yes] [--json]    go on from where a session stopped (a failure, Ctrl+C)
  council extend <id> [--yes] [--json]   debate further cycles on a session
  council revisit <id> [--yes] [--json]  reopen the skipped questions, then debate again
  council more <id> [--yes] [--json]     ask the council for more questions, then debate again
  council sessions
  council sessions show <id>
  council sessions export <id>          the session as Markdown (redirect it: > decision.md)
  council mcp [--demo] [--model <id>]    an MCP server over stdio with Council's four tools
  council record <id> [--yes] [--folder <dir>]   the session's decision as a record in the project's decision folder
  council eval [--model <id>] [--only <id>] [--demo]   the fixed decisions, each by the council and by one prompt to the
                                         same model, side by side with cost and time (Markdown on stdout: > report.md)
${DEEP_WORK_USAGE}

Models: .council/config.json in the project, else ~/.config/council/config.json (schemas/council-config.schema.json):
  providers, a model per seat, the opening and the answer, dollar prices and limits; keys only from the environment.
Without a config file: OPENAI_API_KEY (OPENAI_BASE_URL: any OpenAI-compatible endpoint, e.g. Ollama, LM Studio),
  ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY chooses the provider.
  --model  the model id (default gpt-5-mini, claude-sonnet-4-5 or gemini-2.5-flash); with a config file,
           <provider>:<model id> in place of its default (a session that ran on the demo model goes on on it)
  --cycles the most debate cycles before the council answers (default 10; council extend goes on up to 10)
  --yes    take every recommended answer as a logged assumption; never wait for input (retry, extend, revisit,
           more: run without asking after the forecast)
  --json   print the session's result as JSON
  --folder the decision records' folder (default: found from .adr-dir, doc/adr, docs/adr, docs/decisions; else docs/decisions)
Ctrl+C stops the spending and saves the session (council retry <id> goes on); a second Ctrl+C quits at once.`;

function isResumeAction(command: string | undefined): command is ResumeAction {
  return RESUME_ACTIONS.some(action => action === command);
}

/** Runs one command; returns the exit code. */
export async function main(argv: readonly string[], project = process.cwd(), model?: LanguageModel): Promise<number> {
  const [command, ...rest] = argv;
  // The unit is this process's (dollars for the user's models); put back for a caller that runs main in-process.
  const unit = costsInDollars() ? 'dollars' : 'credits';
  try {
    if (command === 'ask') return await ask(rest, project, model);
    if (isResumeAction(command)) return await resume(command, rest, project, model);
    if (command === 'sessions') return await sessions(rest, project);
    if (command === 'record') return await record(rest, project);
    if (command === 'mcp') return await mcp(rest, project, model);
    if (command === 'eval') return await evaluate(rest, project, model);
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
  } finally {
    showCostsIn(unit);
  }
}

if (require.main === module) void main(process.argv.slice(2)).then(code => (process.exitCode = code));
