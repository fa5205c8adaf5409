import * as assert from 'node:assert/strict';
import { PlanInputSchema, WorkflowInputSchema } from '../../../../src/core/deepWork/deepWorkInput';
import { planRequestOf, workflowRequestOf } from '../../../../src/vscode/tools/deepWorkInput';
import { parsePlanRequest } from '../../../../src/vscode/deepWork/planRequest';
import { parseWorkflowRequest } from '../../../../src/vscode/deepWork/workflowRequest';

const RUN = 'wf-00000000-0000-4000-8000-000000000001';

const plan = (input: object) => planRequestOf(PlanInputSchema.parse(input));
const workflow = (input: object) => workflowRequestOf(WorkflowInputSchema.parse(input));

describe('the deep-work tools: input validated into the requests the chat parses', () => {
  it('council_plan: the same request as the chat text for each way to start or continue a run', () => {
    for (const [input, text] of [
      [{ goal: '  Add a subtract helper ' }, 'Add a subtract helper'],
      [{ sessionId: 's1' }, ''],
      [{ runId: RUN, option: 2, feedback: 'split the ticket' }, `decide ${RUN} 2 split the ticket`],
      [{ runId: RUN, action: 'continue' }, `continue ${RUN}`],
      // `answer` is the older name of the feedback for a pick.
      [{ runId: RUN, action: 'redo', answer: 'more tests' }, `redo ${RUN} more tests`],
      [{ runId: RUN, answer: 'use PostgreSQL' }, `resume ${RUN} use PostgreSQL`],
      [{ runId: RUN, action: 'abort' }, `abort ${RUN}`],
    ] as const)
      assert.deepEqual(plan(input), parsePlanRequest(text), JSON.stringify(input));
  });

  it('council_workflow: list, start and continue, as the chat parses them', () => {
    for (const [input, text] of [
      [{}, ''],
      [{ workflow: 'review-flow', goal: 'Review it', flags: ['backend'] }, 'review-flow --flags backend Review it'],
      [{ runId: RUN, option: 2, feedback: 'Focus on errors' }, `decide ${RUN} 2 Focus on errors`],
      [{ runId: RUN, action: 'resume', feedback: 'the answer' }, `resume ${RUN} the answer`],
      [{ runId: RUN, action: 'abort' }, `abort ${RUN}`],
    ] as const)
      assert.deepEqual(workflow(input), parseWorkflowRequest(text), JSON.stringify(input));
  });

  it('refuses input that names two things at once or a run id that is not one', () => {
    assert.equal(PlanInputSchema.safeParse({ runId: RUN, option: 1, action: 'continue' }).success, false);
    assert.equal(PlanInputSchema.safeParse({}).success, false);
    assert.equal(WorkflowInputSchema.safeParse({ workflow: 'plan', runId: RUN }).success, false);
    assert.equal(WorkflowInputSchema.safeParse({ runId: 'wf-x' }).success, false);
  });
});
