import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  PlanInputSchema,
  WorkflowInputSchema,
  type PlanInput,
  type WorkflowInput,
} from '../../core/deepWork/deepWorkInput';
import type { CancellationSignal, LanguageModel } from '../../core/llm/languageModel';
import type { CheckpointChoice, NextStep, RunCommand } from '../../core/nextSteps';
import { cliNextStepsText } from '../cliNextSteps';
import { commandLimitAdvice } from '../commandLimitAdvice';
import { commandModels } from '../commands/councilParts';
import { DEMO_PLAN_GOAL, DemoModel } from '../demo/demoModel';
import { NodeWorkspaceReader } from '../nodeWorkspaceReader';
import { SessionFiles } from '../sessionFiles';
import { applyTicketChanges } from './applyTicketChanges';
import { workflowListText } from './deepWorkText';
import { planTurn, RUN_LIMITS, workflowTurn, type DeepWorkDoor, type DeepWorkResult } from './deepWorkRun';
import { packageRoot, projectWorkflows } from './projectWorkflows';
import { RunFiles } from './runFiles';
import { cliScriptSandbox } from './scriptSandbox';

/*
 * `council plan` and `council workflow` in a terminal: one run in the current folder, pausing at each checkpoint with
 * its choices (a terminal picks one; `--yes` takes the one that continues; with neither, the command stops there and
 * prints the commands that go on). Read-only outside `.council/runs/` until the user confirms a ticket's changes.
 */

/** The lines `council help` shows for these two commands. */
export const DEEP_WORK_USAGE = `  council plan "<goal>" [--model <id>] [--yes] [--json]   deep work on this folder: discovery, planning, tickets
  council plan --demo ["<goal>"]        the same run on this folder with the scripted demo model: no key, no network
  council plan --session <id>            plan a council session's answer
  council plan --run <run-id> [--option <n> | --action continue|redo|skip|abort|resume] [--feedback "<text>"]
  council plan --run <run-id> --apply <ticket-id> [--yes]   apply one ticket's proposed changes (asks [y/N] first)
  council workflow                       list the workflows (built in, and .council/workflows/*.yaml)
  council workflow <name> "<goal>" [--flags a,b] [--yes] [--json] [--demo]
  council workflow --run <run-id> [--option <n> | --action resume|abort] [--feedback "<text>"]`;

/** A command-line mistake: the message says what to type instead (exit code 2). */
class DeepWorkUsage extends Error {}

/** Ctrl+C stops the run's spending (the run is saved as of its last phase); a second Ctrl+C leaves at once. */
function interrupts(): { readonly token: CancellationSignal; dispose(): void } {
  const abort = new AbortController();
  const onInterrupt = () => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write('\n… stopping after the current request (Ctrl+C again to quit now)\n');
    abort.abort();
  };
  process.on('SIGINT', onInterrupt);
  return {
    token: {
      get isCancellationRequested() {
        return abort.signal.aborted;
      },
      onCancellationRequested(listener) {
        abort.signal.addEventListener('abort', listener);
        return { dispose: () => abort.signal.removeEventListener('abort', listener) };
      },
    },
    dispose: () => process.off('SIGINT', onInterrupt),
  };
}

/** The checkpoint's choices in a result's next steps. */
function choicesOf(next: readonly NextStep[]): CheckpointChoice[] {
  return next.flatMap(step => (step.kind === 'choose' ? [step.choice] : []));
}

/** The choice `--yes` takes: the one that continues, else the first. */
function defaultChoice(choices: readonly CheckpointChoice[]): CheckpointChoice | undefined {
  return choices.find(choice => choice.action === 'continue') ?? choices[0];
}

/** Parses the arguments into the tools' input (the same schema the MCP and VS Code tools validate). */
function inputOf(
  command: RunCommand,
  positionals: readonly string[],
  values: Record<string, unknown>,
): PlanInput | WorkflowInput {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  // The demo works on the goal the demo council recommended when none is given (a new run only).
  const demoGoal = values['demo'] === true && text('run') === undefined && text('session') === undefined;
  const option = text('option');
  const common = {
    ...(text('run') !== undefined ? { runId: text('run') } : {}),
    ...(option !== undefined ? { option: Number(option) } : {}),
    ...(text('action') !== undefined ? { action: text('action') } : {}),
    ...(text('feedback') !== undefined ? { feedback: text('feedback') } : {}),
  };
  const raw =
    command === 'plan'
      ? {
          ...common,
          ...(positionals.length ? { goal: positionals.join(' ') } : demoGoal ? { goal: DEMO_PLAN_GOAL } : {}),
          ...(text('session') !== undefined ? { sessionId: text('session') } : {}),
        }
      : {
          ...common,
          ...(positionals[0] !== undefined ? { workflow: positionals[0] } : {}),
          ...(positionals.length > 1
            ? { goal: positionals.slice(1).join(' ') }
            : demoGoal && positionals[0] !== undefined
              ? { goal: DEMO_PLAN_GOAL }
              : {}),
          ...(text('flags') !== undefined ? { flags: (text('flags') ?? '').split(',').filter(Boolean) } : {}),
        };
  if (command === 'plan' && Object.keys(raw).length === 0)
    throw new DeepWorkUsage('council plan needs a goal: council plan "Add input validation to the settings form".');
  const parsed = (command === 'plan' ? PlanInputSchema : WorkflowInputSchema).safeParse(raw);
  // The tools' field names are the flags': runId is --run, sessionId is --session, option is --option.
  if (!parsed.success)
    throw new DeepWorkUsage(
      `council ${command}: ${parsed.error.issues.map(issue => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}.`,
    );
  return parsed.data;
}

/** Asks on the terminal; undefined when there is no terminal to ask on. */
async function askTerminal(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true) return undefined;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question(question)).trim();
  } finally {
    terminal.close();
  }
}

/** The pick at a checkpoint: `<n> [feedback]`, Enter for the default, `q` to stop here (the run stays saved). */
async function pickOnTerminal(
  choices: readonly CheckpointChoice[],
): Promise<{ option: number; feedback: string } | undefined> {
  const fallback = defaultChoice(choices);
  const menu = choices
    .map(c => `  [${c.option}] ${c.label}${c.takesFeedback ? ' (add what to change after the number)' : ''}`)
    .join('\n');
  for (;;) {
    const reply = await askTerminal(
      `\n${menu}\n  [Enter] ${fallback?.label ?? 'continue'} · [q] stop here (the run is saved)\n> `,
    );
    if (reply === undefined || reply.toLowerCase() === 'q') return undefined;
    if (reply === '' && fallback) return { option: fallback.option, feedback: '' };
    const match = /^(\d+)\s*([\s\S]*)$/.exec(reply);
    const option = Number(match?.[1]);
    if (choices.some(c => c.option === option)) return { option, feedback: (match?.[2] ?? '').trim() };
    process.stderr.write(`Type one of the numbers 1 to ${choices.length}, Enter, or q.\n`);
  }
}

/** What a result tells the user: the report on stdout, the error and the commands that go on on stderr. */
function show(result: DeepWorkResult): void {
  if (result.report) process.stdout.write(`${result.report}\n`);
  if (result.error) process.stderr.write(`council: ${result.error}\n`);
  // A proposal Apply would refuse gets why, not a command that cannot work.
  const apply = (result.proposals ?? []).map(p =>
    p.refused
      ? `  ${p.ticketId}: ${p.refused}`
      : `  council plan --run ${result.run?.runId} --apply ${p.ticketId}   (${p.changes.join(', ')})`,
  );
  const next = cliNextStepsText(result.next);
  if (result.run) process.stderr.write(`\nSaved: ${result.run.file}\n`);
  if (next || apply.length)
    process.stderr.write(`${next || '\nNext:\n'}${apply.length ? `${apply.join('\n')}\n` : ''}`);
}

/** Asks [y/N] before a ticket's changes are written (without a terminal: never). */
async function confirmChanges(ticketId: string, files: readonly string[]): Promise<boolean> {
  process.stderr.write(
    `\nThe changes proposed for ${ticketId} (written by a language model: review them first):\n${files.map(f => `  ${f}`).join('\n')}\n`,
  );
  const reply = await askTerminal(`Apply them? [y/N] `);
  if (reply === undefined)
    process.stderr.write('Not applied: no terminal to confirm on. Run it again with --yes to apply.\n');
  return /^y(es)?$/i.test(reply ?? '');
}

/** The run ran on the scripted demo model: it goes on on the same one unless another is named (as a session does). */
async function ranOnDemo(runs: RunFiles, runId: string): Promise<boolean> {
  const read = await runs.read(runId);
  const lines = read.kind === 'found' ? read.run.state.spending : [];
  const demo = new DemoModel().name;
  return lines.length > 0 && lines.every(line => line.model === demo);
}

/** `council plan …` or `council workflow …`; returns the exit code. */
export async function deepWorkCommand(
  command: RunCommand,
  args: readonly string[],
  project: string,
  model?: LanguageModel,
): Promise<number> {
  try {
    return await run(command, args, project, model);
  } catch (error) {
    if (!(error instanceof DeepWorkUsage)) throw error;
    process.stderr.write(`${error.message}\n\nUsage:\n${DEEP_WORK_USAGE}\n`);
    return 2;
  }
}

async function run(
  command: RunCommand,
  args: readonly string[],
  project: string,
  given?: LanguageModel,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      run: { type: 'string' },
      option: { type: 'string' },
      action: { type: 'string' },
      feedback: { type: 'string' },
      session: { type: 'string' },
      flags: { type: 'string' },
      apply: { type: 'string' },
      demo: { type: 'boolean' },
    },
  });
  const runs = new RunFiles(project);
  const yes = values.yes === true;
  if (values.apply !== undefined) {
    if (command !== 'plan' || !values.run)
      throw new DeepWorkUsage('--apply needs the plan run: council plan --run <run-id> --apply <ticket-id>');
    const ticket = values.apply;
    const outcome = await applyTicketChanges(project, runs, values.run, ticket, files =>
      yes ? Promise.resolve(true) : confirmChanges(ticket, files),
    );
    process.stderr.write(`${outcome.message}\n`);
    return outcome.applied ? 0 : 1;
  }
  let input = inputOf(command, positionals, values);
  const root = packageRoot();
  // A list needs no model (and no key).
  if (command === 'workflow' && !('workflow' in input && input.workflow) && !input.runId) {
    process.stdout.write(`${workflowListText(await projectWorkflows(project, root))}\n`);
    return 0;
  }
  const models = await commandModels({
    project,
    demo:
      values.demo === true ||
      (values.model === undefined &&
        given === undefined &&
        input.runId !== undefined &&
        (await ranOnDemo(runs, input.runId))),
    ...(values.model ? { modelFlag: values.model } : {}),
    ...(given ? { given } : {}),
  });
  const model = models.model;
  // The demo's replies cite the folder's files; in a folder with none, discovery could only fail after spending.
  if (
    values.demo === true &&
    !input.runId &&
    (await new NodeWorkspaceReader(project).listFiles(undefined, 1)).length === 0
  )
    throw new DeepWorkUsage(
      `council ${command} --demo works on the folder it runs in, and ${project} has no files to read: run it in a project folder.`,
    );
  const stop = interrupts();
  const door: DeepWorkDoor = {
    project,
    model,
    runs,
    catalog: () => projectWorkflows(project, root),
    sandbox: cliScriptSandbox(root),
    spending: { limits: RUN_LIMITS, prices: models.prices, advice: commandLimitAdvice(undefined) },
    token: stop.token,
    progress: message => process.stderr.write(`… ${message}\n`),
    sessions: new SessionFiles(project),
  };
  const json = values.json === true;
  try {
    for (;;) {
      const result =
        command === 'plan'
          ? await planTurn(door, input as PlanInput)
          : await workflowTurn(door, input as WorkflowInput);
      const runId = result.run?.runId;
      const choices = choicesOf(result.next);
      const paused = result.run?.status === 'paused' && runId !== undefined && choices.length > 0;
      if (paused && !stop.token.isCancellationRequested) {
        if (!json) process.stdout.write(`${result.report}\n`);
        if (result.error) process.stderr.write(`council: ${result.error}\n`);
        const taken = yes ? defaultChoice(choices) : undefined;
        if (taken) process.stderr.write(`… --yes: ${taken.label}\n`);
        const pick = taken ? { option: taken.option, feedback: '' } : yes ? undefined : await pickOnTerminal(choices);
        if (pick) {
          input = { runId, option: pick.option, ...(pick.feedback ? { feedback: pick.feedback } : {}) };
          continue;
        }
        if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else show({ ...result, report: '', error: undefined });
        return result.error ? 1 : 0;
      }
      if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else show(result);
      if (!yes && !json && runId && result.proposals?.length && process.stdin.isTTY === true)
        for (const proposal of result.proposals.filter(p => !p.refused)) {
          const outcome = await applyTicketChanges(project, runs, runId, proposal.ticketId, files =>
            confirmChanges(proposal.ticketId, files),
          );
          process.stderr.write(`${outcome.message}\n`);
        }
      return result.error ? 1 : 0;
    }
  } finally {
    stop.dispose();
  }
}
