import * as assert from 'node:assert/strict';
import { cliCommandFor, cliNextStepsText } from '../../../src/cli/cliNextSteps';

describe('cliNextSteps', () => {
  it('renders the steps the command can do as commands with the session id', () => {
    assert.equal(cliCommandFor({ kind: 'assumptions', sessionId: 's1' }), 'council sessions show s1');
    assert.equal(cliCommandFor({ kind: 'new' }), 'council ask "<decision>"');
    assert.equal(cliCommandFor({ kind: 'record', sessionId: 's1' }), 'council record s1');
    assert.equal(cliCommandFor({ kind: 'extend', sessionId: 's1' }), 'council extend s1');
    assert.equal(cliCommandFor({ kind: 'revisit', sessionId: 's1' }), 'council revisit s1');
    assert.equal(cliCommandFor({ kind: 'more', sessionId: 's1' }), 'council more s1');
    assert.equal(cliCommandFor({ kind: 'retry', of: { sessionId: 's1' }, after: 'failure' }), 'council retry s1');
  });

  it('leaves out steps the command has no subcommand for, so it never prints one that does not exist', () => {
    const text = cliNextStepsText([
      { kind: 'accept', sessionId: 's1' },
      { kind: 'skip', sessionId: 's1' },
      { kind: 'skipAll', sessionId: 's1' },
      { kind: 'retry', of: { sessionId: 's1' }, after: 'failure' },
      { kind: 'new' },
    ]);
    // Accepting and skipping happen at the question prompt that `council retry` opens again.
    assert.equal(text, '\nNext:\n  council retry s1\n  council ask "<decision>"\n');
  });

  it("renders a run's checkpoint choices and its resume as `council plan|workflow --run` commands", () => {
    const run = { runId: 'wf-1', command: 'workflow' } as const;
    assert.equal(
      cliCommandFor({
        kind: 'choose',
        run,
        choice: { option: 2, label: 'Redo stage', action: 'redo', takesFeedback: true },
      }),
      'council workflow --run wf-1 --option 2 [--feedback "<what to change>"]   (Redo stage)',
    );
    assert.equal(
      cliCommandFor({ kind: 'retry', of: { run: { ...run, command: 'plan' } }, after: 'stop' }),
      'council plan --run wf-1 --action resume',
    );
  });

  it('prints nothing when no step has a command', () => {
    assert.equal(cliNextStepsText([{ kind: 'skip', sessionId: 's1' }]), '');
  });

  it("plans a session's answer with council plan --session", () => {
    assert.equal(cliCommandFor({ kind: 'planThis', sessionId: 's1' }), 'council plan --session s1');
  });
});
