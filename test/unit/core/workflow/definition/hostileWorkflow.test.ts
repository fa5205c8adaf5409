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
  const result = parseWorkflow(text, SOURCE, {
    knownTypes: new Set(['code-scout', 'reviewer', 'writer']),
    knownTools: new Set(['copilot_searchCodebase', 'copilot_readFile']),
  });
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

describe('a workflow file is checked for what would fail at run time, before anything is spent', () => {
  const TYPES = new Set(['code-scout', 'reviewer', 'writer']);
  const TOOLS = new Set(['copilot_searchCodebase', 'copilot_readFile']);

  it("accepts spec 002's mixed-mode example, which has no description", () => {
    const text = `name: research-with-finalization
execution_mode: adaptive
phases:
  - id: discovery
    behavior: parallel
    subagents:
      always: [{ type: code-scout }]
      adaptive: { script: "return [];" }
  - id: finalization
    execution_mode: loose
    behavior: main-only
    main_agent:
      script: |
        const plan = await thinkHard("Synthesize all findings");
        writeFile('final-plan.md', plan);
`;
    const result = parseWorkflow(text, SOURCE, { knownTypes: TYPES, knownTools: TOOLS });
    assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.issues));
    assert.equal(result.workflow.description, '');
  });

  it('refuses an output path outside the run folder, at its line', () => {
    const text = `name: x
phases:
  - id: scan
    behavior: parallel
    subagents:
      - type: code-scout
        config: { output_path: /etc/cron.d/x }
      - type: writer
        config: { output_path: "{{output_dir}}/../../escape.md" }
      - type: reviewer
        config: { output_path: "{{output_dir}}/review/notes.md" }
`;
    const all = rejected(text);
    assert.deepEqual(
      all.map(issue => [issue.field, issue.line]),
      [
        ['phases[0].subagents[0].config.output_path', 7],
        ['phases[0].subagents[1].config.output_path', 9],
      ],
    );
    assert.match(
      all[0]?.message ?? '',
      /`\/etc\/cron\.d\/x` cannot be written: it is an absolute path\. A run writes only under/,
    );
    assert.match(all[1]?.message ?? '', /it leaves the run folder/);
  });

  it('refuses a skill that is neither an agent type nor a read-only tool, with a suggestion', () => {
    const text = `name: x
phases:
  - id: scan
    behavior: main-only
    execution_mode: loose
    main_agent: { script: "return 1;" }
    skills:
      - name: codebase-researcher
      - name: copilot_searchCodebse
      - name: reviewer
`;
    const all = rejected(text);
    assert.deepEqual(
      all.map(issue => issue.field),
      ['phases[0].skills[0].name', 'phases[0].skills[1].name'],
    );
    assert.match(
      all[0]?.message ?? '',
      /Unknown skill `codebase-researcher`: a skill is an agent type or a read-only tool/,
    );
    assert.match(all[1]?.message ?? '', /did you mean `copilot_searchCodebase`\?/);
  });
});
