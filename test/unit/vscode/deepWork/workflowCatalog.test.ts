import { strict as assert } from 'node:assert';
import type { WorkflowParse, WorkflowSource } from '../../../../src/core/workflow/definition/workflowDefinition';
import {
  buildWorkflowCatalog,
  describeWorkflowSource,
  type WorkflowFileRead,
} from '../../../../src/core/deepWork/buildWorkflowCatalog';

/** A stand-in parser: `name: <x>` and `description: <y>` lines; `broken` anywhere is an issue on that line. */
function fakeParse(text: string, source: WorkflowSource): WorkflowParse {
  const lines = text.split('\n');
  const broken = lines.findIndex(line => line.includes('broken'));
  if (broken >= 0)
    return {
      ok: false,
      source,
      issues: [{ field: 'phases[0].behavior', line: broken + 1, message: 'must be parallel, sequential or main-only' }],
    };
  const value = (key: string) =>
    lines
      .find(line => line.startsWith(`${key}:`))
      ?.slice(key.length + 1)
      .trim() ?? '';
  return {
    ok: true,
    workflow: { name: value('name'), description: value('description'), executionMode: 'strict', phases: [], source },
  };
}

const builtIn = (file: string, text: string): WorkflowFileRead => ({
  source: { kind: 'built-in', path: `built-in workflows/${file}` },
  text,
});
const workspace = (file: string, text: string): WorkflowFileRead => ({
  source: { kind: 'workspace', path: `.council/workflows/${file}` },
  text,
});

describe('buildWorkflowCatalog', () => {
  it('loads the built-ins, sorted by name', () => {
    const catalog = buildWorkflowCatalog(
      [builtIn('plan.yaml', 'name: plan'), builtIn('audit.yaml', 'name: audit')],
      [],
      fakeParse,
    );
    assert.deepEqual(
      catalog.workflows.map(w => w.name),
      ['audit', 'plan'],
    );
    assert.deepEqual(catalog.problems, []);
    assert.equal(catalog.get('plan')?.source.path, 'built-in workflows/plan.yaml');
    assert.equal(catalog.get('nope'), undefined);
  });

  it('a workspace workflow overrides the built-in of the same name, and its source says so', () => {
    const catalog = buildWorkflowCatalog(
      [builtIn('plan.yaml', 'name: plan\ndescription: built-in')],
      [workspace('my-plan.yaml', 'name: plan\ndescription: ours'), workspace('review.yml', 'name: review')],
      fakeParse,
    );
    assert.deepEqual(
      catalog.workflows.map(w => w.name),
      ['plan', 'review'],
    );
    const plan = catalog.get('plan');
    assert.equal(plan?.description, 'ours');
    assert.deepEqual(plan?.source, {
      kind: 'workspace',
      path: '.council/workflows/my-plan.yaml',
      overrides: 'built-in workflows/plan.yaml',
    });
    assert.equal(
      describeWorkflowSource(plan!.source),
      '.council/workflows/my-plan.yaml (overrides built-in workflows/plan.yaml)',
    );
    assert.equal(describeWorkflowSource(catalog.get('review')!.source), '.council/workflows/review.yml');
    assert.deepEqual(catalog.problems, []);
  });

  it('a malformed file is a problem with its path, line and field; the others still load', () => {
    const catalog = buildWorkflowCatalog(
      [builtIn('plan.yaml', 'name: plan')],
      [workspace('bad.yaml', 'name: bad\nphases:\n  - broken'), workspace('good.yaml', 'name: good')],
      fakeParse,
    );
    assert.deepEqual(
      catalog.workflows.map(w => w.name),
      ['good', 'plan'],
    );
    assert.deepEqual(catalog.problems, [
      {
        source: { kind: 'workspace', path: '.council/workflows/bad.yaml' },
        issues: [{ field: 'phases[0].behavior', line: 3, message: 'must be parallel, sequential or main-only' }],
      },
    ]);
  });

  it('of two workspace files with the same name the first by path wins; the second is a problem naming both', () => {
    const catalog = buildWorkflowCatalog(
      [],
      [
        workspace('b.yaml', '# second\nname: review\ndescription: b'),
        workspace('a.yaml', 'name: review\ndescription: a'),
      ],
      fakeParse,
    );
    assert.equal(catalog.workflows.length, 1);
    assert.equal(catalog.get('review')?.description, 'a');
    assert.equal(catalog.problems.length, 1);
    const [problem] = catalog.problems;
    assert.equal(problem?.source.path, '.council/workflows/b.yaml');
    assert.equal(problem?.issues[0]?.field, 'name');
    assert.equal(problem?.issues[0]?.line, 2);
    assert.match(
      problem?.issues[0]?.message ?? '',
      /`\.council\/workflows\/b\.yaml` also defines workflow `review`, which `\.council\/workflows\/a\.yaml` defines first.*rename one/,
    );
  });

  it('a duplicate of an overriding workspace file does not override again', () => {
    const catalog = buildWorkflowCatalog(
      [builtIn('plan.yaml', 'name: plan\ndescription: built-in')],
      [workspace('a.yaml', 'name: plan\ndescription: a'), workspace('b.yaml', 'name: plan\ndescription: b')],
      fakeParse,
    );
    assert.equal(catalog.get('plan')?.description, 'a');
    assert.deepEqual(
      catalog.problems.map(p => p.source.path),
      ['.council/workflows/b.yaml'],
    );
  });

  it('a file that cannot be read, or that the parser throws on, is a problem too', () => {
    const catalog = buildWorkflowCatalog(
      [{ source: { kind: 'built-in', path: 'built-in workflows/plan.yaml' }, readError: 'HTTP 404' }],
      [workspace('throws.yaml', 'boom'), workspace('ok.yaml', 'name: ok')],
      (text, source) => {
        if (text === 'boom') throw new Error('unexpected');
        return fakeParse(text, source);
      },
    );
    assert.deepEqual(
      catalog.workflows.map(w => w.name),
      ['ok'],
    );
    assert.deepEqual(
      catalog.problems.map(p => [p.source.path, p.issues[0]?.field, p.issues[0]?.message]),
      [
        ['built-in workflows/plan.yaml', '(file)', 'Could not read the file: HTTP 404'],
        ['.council/workflows/throws.yaml', '(file)', 'Could not parse the file: unexpected'],
      ],
    );
  });
});
