import { strict as assert } from 'node:assert';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseWorkflow } from '../../../../src/core/workflow/definition/parseWorkflow';
import { describeIssues } from '../../../../src/core/workflow/definition/workflowDefinition';
import {
  BUILT_IN_WORKFLOW_FILES,
  BUILT_IN_WORKFLOW_FOLDER,
} from '../../../../src/vscode/deepWork/builtInWorkflowFiles';
import { REPO_ROOT } from '../../../support/nodePersonaSource';

describe('BUILT_IN_WORKFLOW_FILES', () => {
  it('lists exactly the *.yaml / *.yml files in workflows/, sorted (the web host cannot list the folder itself)', async () => {
    const onDisk = (await readdir(join(REPO_ROOT, BUILT_IN_WORKFLOW_FOLDER)))
      .filter(name => /\.ya?ml$/.test(name))
      .sort();
    assert.deepEqual([...BUILT_IN_WORKFLOW_FILES], onDisk);
  });

  it('includes the built-in plan workflow', () => {
    assert.ok(BUILT_IN_WORKFLOW_FILES.includes('plan.yaml'));
  });

  for (const file of BUILT_IN_WORKFLOW_FILES) {
    it(`${file} parses with no issues, and its name is its file name`, async () => {
      const source = { kind: 'built-in', path: `built-in ${BUILT_IN_WORKFLOW_FOLDER}/${file}` } as const;
      const result = parseWorkflow(await readFile(join(REPO_ROOT, BUILT_IN_WORKFLOW_FOLDER, file), 'utf8'), source);
      assert.ok(result.ok, result.ok ? '' : describeIssues(result.source, result.issues));
      assert.equal(result.workflow.name, file.replace(/\.ya?ml$/, ''));
    });
  }
});
