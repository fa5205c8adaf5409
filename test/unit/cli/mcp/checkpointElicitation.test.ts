import { strict as assert } from 'node:assert';
import { checkpointForm, checkpointReply } from '../../../../src/cli/mcp/checkpointElicitation';
import type { CheckpointChoice } from '../../../../src/core/nextSteps';

const PLAN: readonly CheckpointChoice[] = [
  { option: 1, label: 'Continue', action: 'continue', takesFeedback: false },
  { option: 2, label: 'Redo stage', action: 'redo', takesFeedback: true },
  { option: 3, label: 'Skip next stage', action: 'skip', takesFeedback: false },
  { option: 4, label: 'Abort', action: 'abort', takesFeedback: false },
];

describe('a checkpoint as an MCP elicitation form', () => {
  it('offers the choices by label with the one that continues as the default, and a feedback field', () => {
    const form = checkpointForm('Checkpoint after Discovery: review.', PLAN);
    assert.match(form.message, /^Checkpoint after Discovery: review\.\n\n.*Decline.*cancel/s);
    const choice = form.requestedSchema.properties['choice'];
    assert.deepEqual(choice && 'enum' in choice ? choice.enum : [], [
      'Continue',
      'Redo stage',
      'Skip next stage',
      'Abort',
    ]);
    assert.equal(choice && 'default' in choice ? choice.default : undefined, 'Continue');
    assert.deepEqual(form.requestedSchema.required, ['choice']);
    assert.match(JSON.stringify(form.requestedSchema.properties['feedback']), /Read with Redo stage/);
  });

  it('numbers the names when two labels are the same, so each reply maps to one option', () => {
    const twice: CheckpointChoice[] = [
      { option: 1, label: 'Go', action: 'continue', takesFeedback: false },
      { option: 2, label: 'Go', action: 'skip', takesFeedback: false },
    ];
    const choice = checkpointForm('r', twice).requestedSchema.properties['choice'];
    assert.deepEqual(choice && 'enum' in choice ? choice.enum : [], ['1. Go', '2. Go']);
    const reply = checkpointReply({ action: 'accept', content: { choice: '2. Go' } }, twice);
    assert.equal(reply.kind === 'pick' ? reply.choice.option : 0, 2);
  });

  it('reads accept as a pick (feedback only where the choice takes it), decline and cancel as themselves', () => {
    const redo = checkpointReply(
      { action: 'accept', content: { choice: 'Redo stage', feedback: ' Fewer tickets ' } },
      PLAN,
    );
    assert.deepEqual(redo, { kind: 'pick', choice: PLAN[1], feedback: 'Fewer tickets' });
    const skip = checkpointReply(
      { action: 'accept', content: { choice: 'Skip next stage', feedback: 'ignored' } },
      PLAN,
    );
    assert.deepEqual(skip, { kind: 'pick', choice: PLAN[2], feedback: '' });
    const empty = checkpointReply({ action: 'accept' }, PLAN);
    assert.equal(empty.kind === 'pick' ? empty.choice.label : '', 'Continue', 'an empty accept takes the default');
    assert.deepEqual(checkpointReply({ action: 'decline' }, PLAN), { kind: 'declined' });
    assert.deepEqual(checkpointReply({ action: 'cancel' }, PLAN), { kind: 'cancelled' });
  });
});
