import * as assert from 'node:assert/strict';
import { parseWorkflowRequest } from '../../../../src/vscode/deepWork/workflowRequest';
import { deepWorkFollowups } from '../../../../src/vscode/deepWork/deepWorkResult';
import { feedbackQueries } from '../../../../src/vscode/chat/chatNextSteps';
import { runControlText } from '../../../../src/core/deepWork/runControl';
import { runNextSteps } from '../../../../src/core/deepWork/runNextSteps';
import type { WorkflowRunStatus } from '../../../../src/core/deepWork/storedWorkflowRun';
import type { PendingCheckpoint } from '../../../../src/core/workflow/engine/workflowRunState';

const RUN = 'wf-00000000-0000-4000-8000-000000000001';

describe('/workflow requests and buttons', () => {
  it('reads a bare /workflow as the list, and a name with a goal (and flags) as a new run', () => {
    assert.deepEqual(parseWorkflowRequest('  '), { kind: 'list' });
    assert.deepEqual(parseWorkflowRequest('code-review Review the payment module'), {
      kind: 'start',
      name: 'code-review',
      goal: 'Review the payment module',
      flags: [],
    });
    assert.deepEqual(parseWorkflowRequest('code-review --flags backend,api Review it'), {
      kind: 'start',
      name: 'code-review',
      goal: 'Review it',
      flags: ['backend', 'api'],
    });
    assert.deepEqual(parseWorkflowRequest('code-review'), { kind: 'start', name: 'code-review', goal: '', flags: [] });
  });

  it('reads a checkpoint button back as its option (counted from 1) with the typed feedback', () => {
    const decide = (option: number, feedback: string) =>
      runControlText({ kind: 'decide', runId: RUN, pick: { option }, feedback });
    assert.deepEqual(parseWorkflowRequest(decide(2, '')), {
      kind: 'run',
      control: { kind: 'decide', runId: RUN, pick: { option: 2 }, feedback: '' },
    });
    assert.deepEqual(parseWorkflowRequest(`${decide(2, '')} Focus on\nerrors`), {
      kind: 'run',
      control: { kind: 'decide', runId: RUN, pick: { option: 2 }, feedback: 'Focus on\nerrors' },
    });
    assert.deepEqual(parseWorkflowRequest(`resume ${RUN} the answer`), {
      kind: 'run',
      control: { kind: 'resume', runId: RUN, answer: 'the answer' },
    });
    assert.deepEqual(parseWorkflowRequest(`abort ${RUN}`), {
      kind: 'run',
      control: { kind: 'abort', runId: RUN, feedback: '' },
    });
    assert.equal(
      parseWorkflowRequest('decide the release plan').kind,
      'start',
      'a goal that starts with a control word stays a goal',
    );
    assert.deepEqual(
      parseWorkflowRequest('resume'),
      { kind: 'start', name: 'resume', goal: '', flags: [] },
      'a workflow run is always continued by its id',
    );
  });

  it('a paused run gets one button per option; a failed one Try again; a completed one none; an aborted one none; other results are not ours', () => {
    const run = { runId: RUN, command: 'workflow' } as const;
    const pending: PendingCheckpoint = {
      phase: 'scan',
      origin: 'checkpoint',
      prompt: 'Review?',
      files: [],
      options: [
        { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
        { label: 'Notes', withFeedback: true, onSelect: { action: 'continue' } },
      ],
    };
    const metadata = (status: WorkflowRunStatus) => ({
      metadata: { workflow: 1, runId: RUN, status, next: runNextSteps(run, status, pending) },
    });
    assert.deepEqual(
      deepWorkFollowups(metadata('paused'))?.map(f => [f.label, f.command, f.prompt]),
      [
        ['Continue', 'workflow', `decide ${RUN} 1`],
        ['Notes', 'workflow', `decide ${RUN} 2`],
      ],
    );
    assert.deepEqual(feedbackQueries(runNextSteps(run, 'paused', pending)), [
      { title: 'Notes, with feedback…', query: `@council /workflow decide ${RUN} 2 ` },
    ]);
    assert.deepEqual(
      deepWorkFollowups(metadata('failed'))?.map(f => [f.label, f.command, f.prompt]),
      [['Try again', 'workflow', `resume ${RUN}`]],
    );
    assert.deepEqual(deepWorkFollowups(metadata('completed')), []);
    assert.deepEqual(deepWorkFollowups(metadata('aborted')), []);
    assert.equal(deepWorkFollowups({ metadata: { sessionId: 's' } }), undefined);
  });
});
