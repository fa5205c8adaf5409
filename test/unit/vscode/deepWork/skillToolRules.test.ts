import * as assert from 'node:assert/strict';
import { isReadOnlyTool, toolInput } from '../../../../src/vscode/deepWork/skillToolRules';

describe('skills that name language-model tools', () => {
  it('offers tools that only look things up, never ones whose name or tags say they change something', () => {
    assert.equal(isReadOnlyTool({ name: 'codebase_search', tags: ['search'] }), true);
    assert.equal(isReadOnlyTool({ name: 'copilot_readFile', tags: [] }), true);
    for (const tool of [
      { name: 'editFiles', tags: [] },
      { name: 'runInTerminal', tags: [] },
      { name: 'lookup', tags: ['vscode_editing'] },
      { name: 'createFile', tags: [] },
    ]) {
      assert.equal(isReadOnlyTool(tool), false, tool.name);
    }
  });

  it("turns --key=value args into the tool's input properties and keeps the rest as args", () => {
    assert.deepEqual(toolInput(['--query=auth flow', 'src', '--limit=5']), {
      query: 'auth flow',
      limit: '5',
      args: ['src'],
    });
    assert.deepEqual(toolInput(['--query=a=b']), { query: 'a=b' });
    assert.deepEqual(toolInput([]), {});
  });
});
