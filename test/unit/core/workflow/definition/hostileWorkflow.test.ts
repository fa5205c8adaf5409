import { strict as assert } from 'node:assert';
import {
  MAX_WORKFLOW_CHARS,
  MAX_WORKFLOW_PHASES,
  parseWorkflow,
} from '../../../../../src/core/workflow/definition/parseWorkflow';
import type { WorkflowIssue, WorkflowSource } from '../../../../../src/core/workflow/definition/workflowDefinition';
import { MAX_WORKFLOW_DEPTH } from '../../../../../src/core/workflow/definition/workflowData';

const SOURCE: WorkflowSource = { kind: 'workspace', path: '.council/workflows/bad.yaml' };
const PHASE = `  - id: p{n}
    name: Phase {n}
    description: Does step {n}.
    execution_mode: loose
    behavior: main-only
    main_agent:
      script: return 1;
`;

function rejected(text: string): readonly WorkflowIssue[] {
  const started = Date.now();
  const result = parseWorkflow(text, SOURCE);
  assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
  assert.ok(!result.ok, 'expected the file to be rejected');
  return result.issues;
}

/** Files a hostile or broken workspace could hold: each is refused when it loads, with what is wrong. */
describe('a workflow file that cannot be used is refused when it loads', () => {
  it('refuses a value that contains itself through an alias, at its line', () => {
    const [issue, ...rest] = rejected(
      `name: x\ndescription: y\nconfig: &c {self: *c}\nphases:\n${PHASE.replace(/\{n\}/g, '1')}`,
    );
    assert.equal(rest.length, 0);
    assert.equal(issue?.field, 'config.self');
    assert.equal(issue?.line, 3);
    assert.match(issue?.message ?? '', /contains itself through a YAML alias .*`config`.*Write the value out/);
  });

  it('accepts an alias used twice side by side (a shared value is not a cycle)', () => {
    const phases = PHASE.replace(/\{n\}/g, '1').replace(
      'main_agent:',
      'x_shared: &s [1, 2]\n    x_again: *s\n    main_agent:',
    );
    const result = parseWorkflow(`name: x\ndescription: y\nphases:\n${phases}`, SOURCE);
    // Unknown keys are the schema's business; the point is no cycle issue.
    if (!result.ok) assert.ok(result.issues.every(i => !/contains itself/.test(i.message)));
  });

  it('says the YAML is nested too deeply, not the engine’s stack error', () => {
    const [issue] = rejected(`name: x\nconfig: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    assert.match(issue?.message ?? '', /nested too deeply to read/);
    assert.doesNotMatch(issue?.message ?? '', /call stack/i);
    assert.equal(issue?.line, 2);
  });

  it('refuses data nested deeper than the limit that the parser could still read', () => {
    const depth = MAX_WORKFLOW_DEPTH + 5;
    const [issue] = rejected(`name: x\nconfig: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    assert.match(issue?.message ?? '', new RegExp(`more than ${MAX_WORKFLOW_DEPTH} levels deep`));
  });

  it('refuses a file over the size limit without parsing it', () => {
    const phases = Array.from({ length: 2_000 }, (_, n) => PHASE.replace(/\{n\}/g, String(n))).join('');
    const text = `name: x\ndescription: y\nphases:\n${phases}`;
    assert.ok(text.length > MAX_WORKFLOW_CHARS);
    const [issue] = rejected(text);
    assert.equal(issue?.field, '(file)');
    assert.match(issue?.message ?? '', new RegExp(`at most ${MAX_WORKFLOW_CHARS / 1024} KB`));
  });

  it('refuses more phases than allowed, saying how many', () => {
    const phases = Array.from({ length: MAX_WORKFLOW_PHASES + 1 }, (_, n) => PHASE.replace(/\{n\}/g, String(n)));
    const [issue] = rejected(`name: x\ndescription: y\nphases:\n${phases.join('')}`);
    assert.equal(issue?.field, 'phases');
    assert.match(issue?.message ?? '', new RegExp(`${MAX_WORKFLOW_PHASES + 1} phases; at most ${MAX_WORKFLOW_PHASES}`));
  });

  it('still accepts a workflow at the phase limit', () => {
    const phases = Array.from({ length: MAX_WORKFLOW_PHASES }, (_, n) => PHASE.replace(/\{n\}/g, String(n)));
    const result = parseWorkflow(`name: x\ndescription: y\nphases:\n${phases.join('')}`, SOURCE);
    assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.issues.slice(0, 2)));
  });
});
