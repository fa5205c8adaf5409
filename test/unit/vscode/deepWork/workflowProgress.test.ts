import assert from 'node:assert/strict';
import { workflowProgressMessage } from '../../../../src/core/deepWork/workflowProgress';

describe('workflow progress lines', () => {
  it('a route-back taken and one refused each get a line; the refused one says why and that the run goes on', () => {
    assert.equal(
      workflowProgressMessage({ kind: 'route-back', from: 'tickets', to: 'planning', rationale: 'x' }),
      'tickets sent the run back to planning',
    );
    assert.equal(
      workflowProgressMessage({
        kind: 'route-back-refused',
        from: 'tickets',
        to: 'planning',
        reason: 'phase `planning` already ran 5 times in this run, the most one phase may',
      }),
      'tickets asked to send the run back to planning; refused (phase `planning` already ran 5 times in this run, the most one phase may), the run goes on',
    );
  });

  it("a pipeline stage's own agent gets no line (the stage reports its agents); any other agent does", () => {
    assert.equal(
      workflowProgressMessage({ kind: 'agent-started', phase: 'discovery', type: 'discovery-stage' }),
      undefined,
    );
    assert.equal(
      workflowProgressMessage({ kind: 'agent-finished', phase: 'scan', type: 'reviewer', summary: 'x' }),
      'scan: reviewer done',
    );
  });

  it('a phase starts and completes under its name (the words /plan and /workflow share)', () => {
    assert.equal(
      workflowProgressMessage({ kind: 'phase-started', phase: 'tickets', name: 'Ticket work', iteration: 2 }),
      'Ticket work: starting (pass 2)…',
    );
    assert.equal(
      workflowProgressMessage({ kind: 'phase-completed', phase: 'tickets', name: 'Ticket work' }),
      'Ticket work: complete',
    );
  });
});
