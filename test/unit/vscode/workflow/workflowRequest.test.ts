import * as assert from 'node:assert/strict';
import { decidePrompt, parseWorkflowRequest, workflowButtons } from '../../../../src/vscode/workflow/workflowRequest';
import { deepWorkFollowups } from '../../../../src/vscode/workflow/deepWorkResult';

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
    assert.deepEqual(parseWorkflowRequest(decidePrompt(RUN, 2)), {
      kind: 'decide',
      runId: RUN,
      option: 2,
      feedback: '',
    });
    assert.deepEqual(parseWorkflowRequest(`${decidePrompt(RUN, 2)} Focus on\nerrors`), {
      kind: 'decide',
      runId: RUN,
      option: 2,
      feedback: 'Focus on\nerrors',
    });
    assert.deepEqual(parseWorkflowRequest(`resume ${RUN} the answer`), {
      kind: 'resume',
      runId: RUN,
      text: 'the answer',
    });
    assert.deepEqual(parseWorkflowRequest(`abort ${RUN}`), { kind: 'abort', runId: RUN, text: '' });
    assert.equal(
      parseWorkflowRequest('decide the release plan').kind,
      'start',
      'a goal that starts with a control word stays a goal',
    );
  });

  it('a paused run gets one button per option; a failed one Try again; a completed one none; an aborted one none; other results are not ours', () => {
    const options = workflowButtons(
      {
        phase: 'scan',
        origin: 'checkpoint',
        prompt: 'Review?',
        files: [],
        options: [
          { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
          { label: 'Notes', withFeedback: true, onSelect: { action: 'continue' } },
        ],
      },
      RUN,
    );
    const paused = deepWorkFollowups({ metadata: { workflow: 1, runId: RUN, status: 'paused', options } });
    assert.deepEqual(
      paused?.map(f => [f.label, f.command, f.prompt]),
      [
        ['Continue', 'workflow', decidePrompt(RUN, 1)],
        ['Notes', 'workflow', decidePrompt(RUN, 2)],
      ],
    );
    assert.deepEqual(
      deepWorkFollowups({ metadata: { workflow: 1, runId: RUN, status: 'failed' } })?.map(f => [f.command, f.prompt]),
      [['workflow', `resume ${RUN}`]],
    );
    assert.deepEqual(deepWorkFollowups({ metadata: { workflow: 1, runId: RUN, status: 'completed' } }), []);
    assert.deepEqual(deepWorkFollowups({ metadata: { workflow: 1, runId: RUN, status: 'aborted' } }), []);
    assert.equal(deepWorkFollowups({ metadata: { sessionId: 's' } }), undefined);
  });
});
