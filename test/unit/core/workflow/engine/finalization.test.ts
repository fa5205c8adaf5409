import * as assert from 'node:assert/strict';
import { renderFinalDocument } from '../../../../../src/core/workflow/engine/finalization';
import type { WorkflowContext } from '../../../../../src/core/workflow/engine/workflowContext';

const FOLDER = '.council/runs/wf-1';
const at = '2026-01-19T10:00:00.000Z';
const context: WorkflowContext = {
  workflow: { name: 'review', started_at: at, execution_mode: 'strict' },
  feature: { name: 'review', flags: [] },
  goal: 'Review it.',
  output_dir: FOLDER,
  phases: { current: null, completed: ['scan'], iteration_counts: { scan: 1 } },
  subagents_spawned: 1,
  deliverables: [
    {
      phase: 'scan',
      subagent: 'reviewer',
      path: `${FOLDER}/scan/notes.md`,
      size_bytes: 10,
      created_at: at,
      timestamp: at,
    },
  ],
  checkpoints: [{ phase: 'scan', decision: 'continue', feedback: 'Be brief.', timestamp: at }],
  skip_phases: [],
  gap_checks: [],
};

describe('the finalization template', () => {
  it("fills the run's placeholders, lists files and feedback, and inlines files without reading placeholders in them", () => {
    const contents = new Map([[`${FOLDER}/scan/notes.md`, 'Notes that quote {{goal}} literally.']]);
    const document = renderFinalDocument(
      '# {{workflow_name}} ({{date}})\n{{goal}}\n{{deliverables}}\n{{feedback}}\n{{include:scan/notes.md}}\n{{include:none.md}}\n{{unknown}}',
      { workflow_name: 'review', goal: 'Review it.' },
      context,
      contents,
      '2026-01-19',
    );
    assert.equal(
      document,
      '# review (2026-01-19)\nReview it.\n- [scan/notes.md](scan/notes.md) (scan, reviewer)\n- scan: Be brief.\nNotes that quote {{goal}} literally.\n_(none.md was not written by this run)_\n{{unknown}}',
    );
  });
});
