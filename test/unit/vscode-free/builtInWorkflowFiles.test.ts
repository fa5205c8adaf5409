import { strict as assert } from 'node:assert';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_WORKFLOW_FILES, BUILT_IN_WORKFLOW_FOLDER } from '../../../src/vscode/workflow/builtInWorkflowFiles';
import { REPO_ROOT } from '../../support/nodePersonaSource';

describe('BUILT_IN_WORKFLOW_FILES', () => {
  it('lists exactly the *.yaml / *.yml files in workflows/, sorted (the web host cannot list the folder itself)', async () => {
    const onDisk = (await readdir(join(REPO_ROOT, BUILT_IN_WORKFLOW_FOLDER))).filter(name => /\.ya?ml$/.test(name)).sort();
    assert.deepEqual([...BUILT_IN_WORKFLOW_FILES], onDisk);
  });

  it('includes the built-in plan workflow', () => {
    assert.ok(BUILT_IN_WORKFLOW_FILES.includes('plan.yaml'));
  });
});
