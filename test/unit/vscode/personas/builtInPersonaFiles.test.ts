import { strict as assert } from 'node:assert';
import { readdir } from 'node:fs/promises';
import { BUILT_IN_PERSONA_FILES } from '../../../../src/vscode/personas/builtInPersonaFiles';
import { BUILT_IN_PERSONAS_DIR } from '../../../support/nodePersonaSource';

describe('BUILT_IN_PERSONA_FILES', () => {
  it('lists exactly the *.md files in personas/, sorted (the web host cannot list the folder itself)', async () => {
    const onDisk = (await readdir(BUILT_IN_PERSONAS_DIR)).filter(name => name.endsWith('.md')).sort();
    assert.deepEqual([...BUILT_IN_PERSONA_FILES], onDisk);
  });
});
