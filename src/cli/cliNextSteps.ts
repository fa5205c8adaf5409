import type { NextStep } from '../core/nextSteps';

/*
 * The `council` command's rendering of the core's next steps (core/nextSteps.ts): each step as the command a terminal
 * user types. Steps this command cannot do yet render as undefined and are left out, so it never prints a command that
 * does not exist; the exhaustive switch makes each new step kind a build error here until it is decided.
 */

/** The command line for one step, or undefined where the `council` command has none (yet). */
export function cliCommandFor(step: NextStep): string | undefined {
  switch (step.kind) {
    case 'assumptions':
      return `council sessions show ${step.sessionId}`;
    case 'new':
      return 'council ask "<decision>"';
    case 'record':
      return `council record ${step.sessionId}`;
    case 'choose':
      return `council ${step.run.command} --run ${step.run.runId} --option ${step.choice.option}${step.choice.takesFeedback ? ' [--feedback "<what to change>"]' : ''}   (${step.choice.label})`;
    case 'retry':
      // A run goes on from where it stopped; a session's retry is not built in the command yet.
      return 'run' in step.of ? `council ${step.of.run.command} --run ${step.of.run.runId} --action resume` : undefined;
    // Answering a question happens at the prompt while `council ask` runs; there is no command to resume it yet.
    case 'answer':
    case 'accept':
    case 'skip':
    case 'skipAll':
    // Not built in the command yet (issue 40 item 1): extend, revisit, more, plan this.
    case 'more':
    case 'revisit':
    case 'extend':
    case 'planThis':
      return undefined;
    default: {
      const unhandled: never = step;
      return unhandled;
    }
  }
}

/** The "Next:" lines printed after a session's answer, one command a line; empty when there is none. */
export function cliNextStepsText(steps: readonly NextStep[]): string {
  const commands = [...new Set(steps.map(cliCommandFor).filter((line): line is string => line !== undefined))];
  return commands.length === 0 ? '' : `\nNext:\n${commands.map(line => `  ${line}`).join('\n')}\n`;
}
