import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../src/core/council/councilTurn';
import { sessionNextSteps } from '../../../src/core/council/sessionNextSteps';
import { nextCallsText } from '../../../src/core/council/toolNextCalls';
import { decisionFor, parseRunControl, runControlText } from '../../../src/core/deepWork/runControl';
import { runNextSteps } from '../../../src/core/deepWork/runNextSteps';
import type { NextStep } from '../../../src/core/nextSteps';
import type { PendingCheckpoint } from '../../../src/core/workflow/engine/workflowRunState';
import { chatFollowup } from '../../../src/vscode/chat/chatNextSteps';
import { councilRig } from '../../support/councilHarness';

const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 10 };
const RUN = 'wf-00000000-0000-4000-8000-000000000001';

/** A session at its first clarifying question (`questions` asked), or completed with `questions: 0`. */
async function session(questions: number) {
  const rig = await councilRig({ script: { questions, convergeAtCycle: 1 } });
  const log = newCouncilSession({ request: 'JWT or server-side sessions?', userId: 'u', limits: LIMITS }, rig.deps);
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  return log;
}

/** Every kind of step once, for the doors' renderers. */
const EVERY_STEP: readonly NextStep[] = [
  { kind: 'answer', sessionId: 's', questionId: 'q1' },
  { kind: 'accept', sessionId: 's' },
  { kind: 'skip', sessionId: 's' },
  { kind: 'skipAll', sessionId: 's' },
  { kind: 'more', sessionId: 's' },
  { kind: 'revisit', sessionId: 's' },
  { kind: 'extend', sessionId: 's' },
  { kind: 'retry', of: { sessionId: 's' }, after: 'failure' },
  { kind: 'retry', of: { run: { runId: RUN, command: 'plan' } }, after: 'stop' },
  {
    kind: 'choose',
    run: { runId: RUN, command: 'workflow' },
    choice: { option: 2, label: 'Notes', action: 'continue', takesFeedback: true },
  },
  { kind: 'record', sessionId: 's' },
  { kind: 'planThis', sessionId: 's' },
  { kind: 'assumptions', sessionId: 's' },
  { kind: 'new' },
];

describe('next steps: decided once in the core, rendered by each door', () => {
  it("a clarifying session offers the open question's steps; a completed one Plan this; both the log and a new session", async () => {
    const clarifying = await session(2);
    const kinds = sessionNextSteps(clarifying.snapshot).map(step => step.kind);
    assert.deepEqual(kinds.slice(0, 4), ['answer', 'accept', 'skip', 'skipAll']);
    assert.deepEqual(kinds.slice(-2), ['assumptions', 'new']);
    assert.ok(!kinds.includes('planThis') && !kinds.includes('retry'));
    const completed = await session(0);
    assert.equal(completed.state, 'completed');
    assert.deepEqual(
      sessionNextSteps(completed.snapshot).map(step => step.kind),
      ['record', 'planThis', 'assumptions', 'new'],
      'a converged debate is not extended; its decision can be recorded',
    );
    assert.ok(
      !sessionNextSteps(completed.snapshot, { stopped: true }).some(step => step.kind === 'retry'),
      'a completed session has nothing to pick up again',
    );
  });

  it("a run's steps: a checkpoint's options by number, Try again after a failure, Resume after a stop, nothing when it is over", () => {
    const pending: PendingCheckpoint = {
      phase: 'scan',
      origin: 'checkpoint',
      prompt: 'Review?',
      files: [],
      options: [
        { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
        { label: 'Redo', withFeedback: true, onSelect: { action: 'repeat_phase', target: 'scan' } },
      ],
    };
    const run = { runId: RUN, command: 'workflow' } as const;
    assert.deepEqual(runNextSteps(run, 'paused', pending), [
      { kind: 'choose', run, choice: { option: 1, label: 'Continue', action: 'continue', takesFeedback: false } },
      { kind: 'choose', run, choice: { option: 2, label: 'Redo', action: 'redo', takesFeedback: true } },
    ]);
    assert.deepEqual(runNextSteps(run, 'failed'), [{ kind: 'retry', of: { run }, after: 'failure' }]);
    assert.deepEqual(runNextSteps(run, 'needs_user'), [{ kind: 'retry', of: { run }, after: 'stop' }]);
    assert.deepEqual(runNextSteps(run, 'completed'), []);
  });

  it('the chat shows each step as a button with its slash command, except an answer, which is typed', () => {
    assert.deepEqual(
      EVERY_STEP.map(step => {
        const button = chatFollowup(step);
        return button ? `${button.label} | /${button.command} ${button.prompt}`.trim() : undefined;
      }),
      [
        undefined,
        'Accept recommended answer | /accept Accept recommended answer',
        'Skip this question | /skip Skip this question',
        'Skip the remaining questions (proceed on assumptions) | /skipall Skip the remaining questions (proceed on assumptions)',
        'Ask more questions | /more Ask more questions',
        'Revisit skipped questions | /revisit Revisit skipped questions',
        'Extend the debate | /extend Extend the debate',
        'Try again | /retry Try again',
        `Resume | /plan resume ${RUN}`,
        `Notes | /workflow decide ${RUN} 2`,
        'Record this decision | /record',
        'Plan this | /plan',
        'Show the assumption log | /assumptions Show the assumption log',
        'Start a new session | /new',
      ],
    );
  });

  it('a tool result shows each step a call takes as that exact call', () => {
    const text = nextCallsText(EVERY_STEP);
    for (const line of [
      '- Answer the open questions: `council_deliberate` with {"sessionId":"s","answers":[{"questionId":"q1","answer":"…"}]}',
      '- Skip the remaining questions (proceed on assumptions): `council_deliberate` with {"sessionId":"s","answers":[]}',
      '- Ask more questions: `council_deliberate` with {"sessionId":"s","action":"more"}',
      '- Revisit skipped questions: `council_deliberate` with {"sessionId":"s","action":"revisit"}',
      '- Extend the debate: `council_deliberate` with {"sessionId":"s","action":"extend"}',
      '- Try again (continue where it stopped, repeating nothing): `council_deliberate` with {"sessionId":"s","action":"retry"}',
      `- Resume: \`council_plan\` with {"runId":"${RUN}","action":"resume"}`,
      `- Notes: \`council_workflow\` with {"runId":"${RUN}","option":2} (add "feedback" with the user's notes)`,
      '- Record this decision (a decision record in the repository; the user reviews the file and confirms): `council_deliberate` with {"sessionId":"s","action":"record"}',
      '- Plan this (turn the answer into tickets): `council_plan` with {"sessionId":"s"}',
    ])
      assert.ok(text.includes(line), line);
    assert.equal(
      text.split('\n').length,
      11,
      'a heading and one line per call: accept, skip, the log and new are not calls',
    );
    assert.equal(nextCallsText([{ kind: 'new' }]), '', 'no heading without a call');
  });

  it('a run is continued in one grammar: an option by number or by what it does, checked against the checkpoint', () => {
    const pending: PendingCheckpoint = {
      phase: 'discovery',
      origin: 'checkpoint',
      prompt: 'Go on?',
      files: [],
      options: [
        { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
        { label: 'Redo stage', withFeedback: true, onSelect: { action: 'repeat_phase', target: 'discovery' } },
        { label: 'Abort', withFeedback: false, onSelect: { action: 'abort' } },
      ],
    };
    assert.deepEqual(decisionFor(pending, { option: 2 }, ' more tests '), { option: 1, feedback: 'more tests' });
    assert.deepEqual(decisionFor(pending, { action: 'redo' }, ''), { option: 1 });
    assert.deepEqual(decisionFor(pending, { action: 'abort' }, ''), { option: 2 });
    assert.match(JSON.stringify(decisionFor(pending, { option: 4 }, '')), /options 1 to 3/);
    assert.match(JSON.stringify(decisionFor(pending, { action: 'skip' }, '')), /no option to skip.*1\. Continue/);
    const control = parseRunControl(`redo ${RUN} split the ticket`, false);
    assert.deepEqual(control, { kind: 'decide', runId: RUN, pick: { action: 'redo' }, feedback: 'split the ticket' });
    assert.equal(control && runControlText(control), `redo ${RUN} split the ticket`);
    assert.equal(parseRunControl('resume', false), undefined, 'a workflow run is named');
    assert.deepEqual(parseRunControl('resume', true), { kind: 'resume', answer: '' });
  });
});
