import * as assert from 'node:assert/strict';
import { applyLineReplacements, StaleProposalError } from '../../../../src/core/deepWork/lineReplacements';
import { parsePlanRequest } from '../../../../src/vscode/deepWork/planRequest';
import { deepWorkFollowups } from '../../../../src/vscode/deepWork/deepWorkResult';
import { chatFollowup } from '../../../../src/vscode/chat/chatNextSteps';
import { runControlText, type RunControl } from '../../../../src/core/deepWork/runControl';
import { runNextSteps } from '../../../../src/core/deepWork/runNextSteps';
import type { PendingCheckpoint } from '../../../../src/core/workflow/engine/workflowRunState';

describe('/plan request parsing', () => {
  const runId = 'wf-0f8fad5b-d9cb-469f-a165-70867728950e';

  it('reads a run control back as the same request, for every way a run is continued', () => {
    const controls: RunControl[] = [
      { kind: 'decide', runId, pick: { option: 2 }, feedback: '' },
      { kind: 'decide', runId, pick: { option: 3 }, feedback: 'Split the ticket' },
      { kind: 'decide', runId, pick: { action: 'continue' }, feedback: '' },
      { kind: 'decide', runId, pick: { action: 'redo' }, feedback: 'more tests' },
      { kind: 'decide', runId, pick: { action: 'skip' }, feedback: '' },
      { kind: 'resume', runId, answer: 'use PostgreSQL' },
      { kind: 'abort', runId, feedback: '' },
    ];
    for (const control of controls)
      assert.deepEqual(parsePlanRequest(runControlText(control)), { kind: 'run', control }, runControlText(control));
  });

  it('keeps a goal that merely starts with a control word a goal', () => {
    assert.deepEqual(parsePlanRequest('continue the migration to ESM'), {
      kind: 'start',
      goal: 'continue the migration to ESM',
    });
  });

  it("takes a bare control word as acting on the newest run, and nothing as the session's answer to plan", () => {
    assert.deepEqual(parsePlanRequest('Resume'), { kind: 'run', control: { kind: 'resume', answer: '' } });
    assert.deepEqual(parsePlanRequest('   '), { kind: 'session' });
  });
});

describe('/plan buttons', () => {
  const runId = 'wf-0f8fad5b-d9cb-469f-a165-70867728950e';
  const run = { runId, command: 'plan' } as const;

  it("a checkpoint's buttons are its workflow file's options, in order, each sending its number", () => {
    // A workspace's plan.yaml with its own labels and no skip option.
    const pending: PendingCheckpoint = {
      phase: 'discovery',
      origin: 'checkpoint',
      prompt: 'Look before planning.',
      files: [],
      options: [
        { label: 'Go on', withFeedback: false, onSelect: { action: 'continue' } },
        { label: 'Again, differently', withFeedback: true, onSelect: { action: 'repeat_phase', target: 'discovery' } },
        { label: 'Stop here', withFeedback: false, onSelect: { action: 'abort' } },
      ],
    };
    const followups = deepWorkFollowups({
      metadata: { plan: 1, runId, status: 'paused', next: runNextSteps(run, 'paused', pending) },
    });
    assert.deepEqual(
      followups?.map(f => [f.label, f.command, f.prompt]),
      [
        ['Go on', 'plan', `decide ${runId} 1`],
        ['Again, differently', 'plan', `decide ${runId} 2`],
        ['Stop here', 'plan', `decide ${runId} 3`],
      ],
    );
    assert.deepEqual(
      deepWorkFollowups({ metadata: { plan: 1, runId, status: 'failed', next: runNextSteps(run, 'failed') } })?.map(
        f => [f.label, f.command, f.prompt],
      ),
      [['Try again', 'plan', `resume ${runId}`]],
    );
    assert.deepEqual(
      runNextSteps(run, 'aborted').map(step => chatFollowup(step)?.label),
      ['Resume'],
      'an aborted plan stays resumable',
    );
    assert.equal(deepWorkFollowups({ metadata: { sessionId: 's' } }), undefined, 'not a /plan or /workflow result');
  });
});

describe('applying proposed line replacements', () => {
  it('replaces ranges bottom-up so earlier line numbers stay valid', () => {
    const text = 'a\nb\nc\nd\n';
    const result = applyLineReplacements('a.txt', text, [
      { startLine: 1, endLine: 1, newText: 'A1\nA2' },
      { startLine: 3, endLine: 4, newText: 'C' },
    ]);
    assert.equal(result, 'A1\nA2\nb\nC\n');
  });

  it('keeps CRLF line endings and can delete lines', () => {
    assert.equal(
      applyLineReplacements('x.txt', 'x\r\ny\r\nz\r\n', [{ startLine: 2, endLine: 2, newText: '' }]),
      'x\r\nz\r\n',
    );
  });

  it('refuses a range beyond the end of a file that changed since the proposal', () => {
    assert.throws(
      () => applyLineReplacements('one.txt', 'one\n', [{ startLine: 2, endLine: 3, newText: 'x' }]),
      (error: unknown) =>
        error instanceof StaleProposalError && error.message === "one.txt: lines 2-3 are beyond the file's 1 lines",
    );
  });
});
