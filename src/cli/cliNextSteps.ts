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
    case 'more':
      return `council more ${step.sessionId}`;
    case 'revisit':
      return `council revisit ${step.sessionId}`;
    case 'extend':
      return `council extend ${step.sessionId}`;
    case 'choose':
      return `council ${step.run.command} --run ${step.run.runId} --option ${step.choice.option}${step.choice.takesFeedback ? ' [--feedback "<what to change>"]' : ''}   (${step.choice.label})`;
    case 'retry':
      // A session goes on with council retry; a run from where it stopped.
      return 'sessionId' in step.of
        ? `council retry ${step.of.sessionId}`
        : `council ${step.of.run.command} --run ${step.of.run.runId} --action resume`;
    // Questions are answered at the prompt `council retry <id>` opens again; accepting and skipping happen there too.
    case 'answer':
      return `council retry ${step.sessionId}`;
    case 'accept':
    case 'skip':
    case 'skipAll':
      return undefined;
    case 'planThis':
      return `council plan --session ${step.sessionId}`;
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
