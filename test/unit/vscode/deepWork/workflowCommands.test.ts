import { strict as assert } from 'node:assert';
import { parseWorkflow } from '../../../../src/core/workflow/definition/parseWorkflow';
import { describeIssues } from '../../../../src/core/workflow/definition/workflowDefinition';
import { WORKFLOW_TEMPLATE } from '../../../../src/core/workflow/definition/workflowTemplate';
import {
  suggestWorkflowName,
  templateFor,
  validateWorkflowName,
  workflowChatQuery,
} from '../../../../src/vscode/deepWork/workflowNames';

describe('workflow commands: the pure parts', () => {
  describe('validateWorkflowName', () => {
    for (const name of ['review', 'code-review', 'a', 'plan2', 'x-1-y']) {
      it(`accepts ${JSON.stringify(name)}`, () => assert.equal(validateWorkflowName(name), undefined));
    }

    it('says what is wrong, and suggests a name that would do', () => {
      assert.match(validateWorkflowName('') ?? '', /Enter a name in kebab-case, e\.g\. `code-review`/);
      assert.match(validateWorkflowName('   ') ?? '', /Enter a name/);
      assert.match(validateWorkflowName('Code-Review') ?? '', /lower-case.*Try `code-review`/);
      assert.match(validateWorkflowName('2fast') ?? '', /Start the name with a letter.*Try `fast`/);
      assert.match(validateWorkflowName('-review') ?? '', /Start the name with a letter.*Try `review`/);
      assert.match(
        validateWorkflowName('code review') ?? '',
        /only a-z, 0-9 and hyphens.*contains space.*Try `code-review`/,
      );
      assert.match(validateWorkflowName('code_review.v2') ?? '', /contains `_`, `\.`.*Try `code-review-v2`/);
      assert.match(validateWorkflowName(' review') ?? '', /Remove the spaces.*Try `review`/);
      assert.match(validateWorkflowName(`a${'b'.repeat(60)}`) ?? '', /60 characters or fewer \(it has 61\)/);
      assert.match(validateWorkflowName('日本語') ?? '', /Start the name with a letter/);
    });

    it('every suggestion it makes is itself valid', () => {
      for (const text of ['Code Review', '2fast', '__x__', 'Ünïcode Flow', 'a'.repeat(80), 'a--b--']) {
        const suggestion = suggestWorkflowName(text);
        if (suggestion) assert.equal(validateWorkflowName(suggestion), undefined, `${text} -> ${suggestion}`);
      }
      assert.equal(suggestWorkflowName('日本語'), '');
    });
  });

  describe('templateFor', () => {
    it('puts the name on the template’s top-level name line and keeps everything else', () => {
      const text = templateFor('code-review', WORKFLOW_TEMPLATE);
      const nameLines = text.split('\n').filter(line => /^name\s*:/.test(line));
      assert.equal(nameLines.length, 1);
      assert.match(nameLines[0] ?? '', /^name: code-review(\s+#.*)?$/);
      const strip = (t: string) => t.split('\n').filter(line => !/^name\s*:/.test(line));
      assert.deepEqual(strip(text), strip(WORKFLOW_TEMPLATE));
    });

    it('gives a file that parses, as a workspace workflow with that name', () => {
      const source = { kind: 'workspace', path: '.council/workflows/code-review.yaml' } as const;
      const result = parseWorkflow(templateFor('code-review', WORKFLOW_TEMPLATE), source);
      assert.ok(result.ok, result.ok ? '' : describeIssues(result.source, result.issues));
      assert.equal(result.workflow.name, 'code-review');
      assert.ok(result.workflow.phases.length > 0);
    });

    it('replaces only the top-level name line, keeps its comment, and adds one when there is none', () => {
      const template =
        '# a comment with name: in it\nname: my-workflow   # the id\nphases:\n  - id: a\n    name: Phase A\n';
      assert.equal(
        templateFor('x', template),
        '# a comment with name: in it\nname: x   # the id\nphases:\n  - id: a\n    name: Phase A\n',
      );
      assert.equal(templateFor('x', 'name: "quoted"\n'), 'name: x\n');
      assert.equal(templateFor('x', 'phases: []\n'), 'name: x\nphases: []\n');
    });

    it('refuses an invalid name', () => {
      assert.throws(() => templateFor('Bad Name', WORKFLOW_TEMPLATE), /Invalid workflow name/);
    });
  });

  it('workflowChatQuery sends `@council /workflow <name> <goal>` on one line', () => {
    assert.equal(workflowChatQuery('plan', '  Add a login page '), '@council /workflow plan Add a login page');
    assert.equal(
      workflowChatQuery('review', 'first line\n  second line'),
      '@council /workflow review first line second line',
    );
  });
});
