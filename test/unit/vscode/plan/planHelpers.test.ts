import * as assert from 'node:assert/strict';
import { applyLineReplacements, StaleProposalError } from '../../../../src/vscode/plan/lineReplacements';
import { parsePlanRequest, planButtons, planControlPrompt } from '../../../../src/vscode/plan/planRequest';
import { deepWorkFollowups } from '../../../../src/vscode/workflow/deepWorkResult';
import type { PendingCheckpoint } from '../../../../src/core/workflow/engine/workflowRunState';

describe('/plan request parsing', () => {
  const runId = 'wf-0f8fad5b-d9cb-469f-a165-70867728950e';

  it('reads a button prompt back as the same control action and run id', () => {
    for (const action of ['continue', 'redo', 'skip', 'abort', 'resume'] as const) {
      assert.deepEqual(parsePlanRequest(planControlPrompt(action, runId)), {
        kind: 'control',
        action,
        runId,
        text: '',
      });
    }
  });

  it('keeps a goal that merely starts with a control word a goal', () => {
    assert.deepEqual(parsePlanRequest('continue the migration to ESM'), {
      kind: 'start',
      goal: 'continue the migration to ESM',
    });
  });

  it("takes a bare control word as acting on the latest run, and text after a run id as the user's answer", () => {
    assert.deepEqual(parsePlanRequest('Resume'), { kind: 'control', action: 'resume', text: '' });
    assert.deepEqual(parsePlanRequest(`resume ${runId} use PostgreSQL`), {
      kind: 'control',
      action: 'resume',
      runId,
      text: 'use PostgreSQL',
    });
    assert.deepEqual(parsePlanRequest('   '), { kind: 'empty' });
  });
});

describe('/plan buttons', () => {
  const runId = 'wf-0f8fad5b-d9cb-469f-a165-70867728950e';

  it("a checkpoint's buttons are its workflow file's options, in order, each sending the word that picks it", () => {
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
      metadata: { plan: 1, runId, status: 'paused', options: planButtons(pending, runId) },
    });
    assert.deepEqual(
      followups?.map(f => [f.label, f.prompt]),
      [
        ['Go on', `continue ${runId}`],
        ['Again, differently', `redo ${runId}`],
        ['Stop here', `abort ${runId}`],
      ],
    );
    assert.deepEqual(
      deepWorkFollowups({ metadata: { plan: 1, runId, status: 'failed' } })?.map(f => [f.label, f.command, f.prompt]),
      [['Try again', 'plan', `resume ${runId}`]],
    );
    assert.deepEqual(
      deepWorkFollowups({ metadata: { plan: 1, runId, status: 'aborted' } })?.map(f => f.label),
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
