import * as assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/nodePersonaSource';

/** The messages `npm run lint` gives a file at `path` whose only line is `source`. */
const eslint = new ESLint({ cwd: REPO_ROOT });

async function restrictedImports(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const x = y;\n`, { filePath: join(REPO_ROOT, path) });
  return (result?.messages ?? []).filter(m => m.ruleId === 'no-restricted-imports').map(m => m.message);
}

describe('lint rules encode the architecture', function () {
  this.timeout(30_000);

  const refused: [string, string, RegExp][] = [
    ['src/core/llm/planted.ts', "import { y } from '../session/selectors';", /core\/llm imports only/],
    [
      'src/core/plan/stages/discovery/planted.ts',
      "import { y } from '../../../council/councilTurn';",
      /core\/plan imports only .*: not .*council/,
    ],
    ['src/core/storage/planted.ts', "import { y } from '../deepWork/runDeepWork';", /core\/storage imports only/],
    // The graph, not a line: the engine imports no feature, and council and engine stand side by side.
    [
      'src/core/workflow/engine/planted.ts',
      "import { y } from '../../plan/run/runState';",
      /core\/workflow imports only/,
    ],
    [
      'src/core/workflow/engine/planted.ts',
      "import { y } from '../../council/councilTurn';",
      /core\/workflow imports only/,
    ],
    [
      'src/core/council/planted.ts',
      "import { y } from '../workflow/engine/runWorkflow';",
      /core\/council imports only/,
    ],
    ['src/core/workspace/planted.ts', "import { y } from '../session/selectors';", /core\/workspace imports only/],
    ['src/core/clockPlanted.ts', "import { y } from './llm/languageModel';", /bottom layer/],
    ['src/core/council/planted.ts', "import { y } from 'vscode';", /platform-neutral/],
    ['src/core/council/planted.ts', "import { y } from 'node:fs';", /no Node built-ins/],
    ['src/core/council/planted.ts', "import { y } from '../../vscode/log';", /platform-neutral/],
    ['src/vscode/chat/planted.ts', "import { y } from '../../node/nodeScriptSandbox';", /desktop host entry/],
    [
      'src/vscode/chat/planted.ts',
      "import { y } from '../../../test/support/inMemoryHistoryStore';",
      /never imports from test/,
    ],
    [
      'src/core/session/planted.ts',
      "import { y } from '../../../test/support/inMemoryHistoryStore';",
      /never imports from test/,
    ],
  ];
  for (const [path, source, expected] of refused) {
    it(`refuses ${source} in ${path}`, async () => {
      const messages = await restrictedImports(path, source);
      assert.ok(
        messages.some(m => expected.test(m)),
        `expected ${expected} in ${JSON.stringify(messages)}`,
      );
    });
  }

  const allowed: [string, string][] = [
    ['src/core/council/planted.ts', "import { y } from '../workspace/workspaceReader';"],
    ['src/core/workflow/engine/planted.ts', "import { y } from '../../workspace/workspaceReader';"],
    ['src/core/plan/stages/discovery/planted.ts', "import { y } from '../../../workflow/engine/runWorkflow';"],
    ['src/core/plan/stages/discovery/planted.ts', "import { y } from '../../run/runState';"],
    ['src/core/deepWork/planted.ts', "import { y } from '../plan/run/runState';"],
    ['src/vscode/chat/planted.ts', "import { y } from 'vscode';"],
  ];
  for (const [path, source] of allowed) {
    it(`allows ${source} in ${path}`, async () => {
      assert.deepEqual(await restrictedImports(path, source), []);
    });
  }
});
