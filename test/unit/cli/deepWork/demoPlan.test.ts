import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DeepWorkResult } from '../../../../src/cli/deepWork/deepWorkRun';
import { DEMO_PLAN_GOAL, DemoModel } from '../../../../src/cli/demo/demoModel';
import { readStoredWorkflowRun } from '../../../../src/core/deepWork/storedWorkflowRun';
import { readBoard } from '../../../../src/core/plan/pipelineBoard';
import { runCouncilMain as run } from '../../../support/runCouncilMain';

/*
 * `council plan --demo`: the real /plan engine on the folder it runs in, with the scripted demo model — no key, no
 * network. The demo's replies must be valid for whatever folder it is run in, so it runs on two unlike folders.
 */

/** Every file under `folder`, project-relative, sorted. */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(folder, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(entry =>
      entry.isDirectory() ? filesUnder(folder, join(prefix, entry.name)) : [join(prefix, entry.name)],
    ),
  );
  return nested.flat().sort();
}

const FOLDERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'a TypeScript app': {
    'src/app.ts': 'import { add } from "./util/math";\nexport const main = () => add(1, 2);\n',
    'src/util/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    'docs/readme.md': '# App\n',
  },
  'a Python service with no src/ folder': {
    'service/main.py': 'def main():\n    return 1\n',
    'tests/test_main.py': 'from service.main import main\n\ndef test_main():\n    assert main() == 1\n',
    'README.md': '# Service\n',
  },
};

/** The provider keys the command would otherwise pick a model from: the demo needs none. */
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'] as const;

describe('council plan --demo', function () {
  this.timeout(30_000);
  let project: string;
  const saved: Partial<Record<(typeof KEYS)[number], string>> = {};
  before(() => {
    for (const key of KEYS) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
  });
  after(() => {
    for (const key of KEYS) if (saved[key] !== undefined) process.env[key] = saved[key];
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  async function folder(files: Readonly<Record<string, string>>): Promise<string> {
    project = await mkdtemp(join(tmpdir(), 'council-demo-plan-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(project, path)), { recursive: true });
      await writeFile(join(project, path), text);
    }
    return project;
  }

  for (const [name, files] of Object.entries(FOLDERS))
    it(`runs every stage on ${name}, citing its files, without a key, and writes only .council/runs/`, async () => {
      await folder(files);
      const before = await filesUnder(project);
      const result = await run(['plan', '--demo', '--yes', '--json'], project);
      assert.equal(result.code, 0, result.stderr);
      const printed = JSON.parse(result.stdout) as DeepWorkResult;
      assert.equal(printed.run?.status, 'completed', result.stderr);
      assert.equal(printed.run?.stage, 'tickets');
      assert.ok((printed.run?.spent.requests ?? 0) > 5, 'each agent and collector made requests on the ledger');
      assert.deepEqual(
        printed.proposals?.map(p => p.ticketId),
        ['T-1', 'T-2'],
      );
      const stored = readStoredWorkflowRun(JSON.parse(await readFile(printed.run?.file ?? '', 'utf8')));
      assert.ok(stored.kind === 'current');
      assert.equal(stored.value.state.context.goal, DEMO_PLAN_GOAL);
      assert.ok(
        stored.value.state.spending.every(line => line.model === new DemoModel().name),
        'every request went to the demo model',
      );
      const map = readBoard(stored.value.state.blackboard).stages.discovery?.result.unifiedCodeMap;
      const cited = [
        ...(map?.modules.flatMap(m => m.keyFiles) ?? []),
        ...(map?.deduplicatedReferences.map(r => r.filePath) ?? []),
      ];
      assert.ok(
        cited.length > 0 && cited.every(path => path in files),
        `the code map names this folder's files: ${cited.join(', ')}`,
      );
      const added = (await filesUnder(project)).filter(file => !before.includes(file));
      assert.ok(
        added.every(file => file.startsWith(join('.council', 'runs'))),
        `only .council/runs/ is written: ${added.join(', ')}`,
      );
      for (const [path, text] of Object.entries(files)) assert.equal(await readFile(join(project, path), 'utf8'), text);
    });

  it('stops at a checkpoint without a terminal; the printed command goes on on the demo model, with no key', async () => {
    await folder(FOLDERS['a TypeScript app'] ?? {});
    const first = await run(['plan', '--demo'], project);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Checkpoint after Discovery/);
    const runId = /council plan --run (wf-[\w-]+) --option 1 +\(Continue\)/.exec(first.stderr)?.[1];
    assert.ok(runId, first.stderr);
    const second = await run(['plan', '--run', runId, '--option', '1', '--json'], project);
    assert.equal(second.code, 0, second.stderr);
    const printed = JSON.parse(second.stdout) as DeepWorkResult;
    assert.equal(printed.run?.status, 'paused');
    assert.equal(printed.run?.stage, 'planning');
  });

  it('refuses a folder with no files before spending anything, saying where to run it', async () => {
    await folder({});
    const result = await run(['plan', '--demo'], project);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /has no files to read: run it in a project folder/);
    await assert.rejects(readdir(join(project, '.council')), 'no run was started');
  });

  it('workflow plan --demo runs the plan workflow by name on the demo goal', async () => {
    await folder(FOLDERS['a TypeScript app'] ?? {});
    const result = await run(['workflow', 'plan', '--demo', '--yes', '--json'], project);
    const printed = JSON.parse(result.stdout) as DeepWorkResult;
    assert.equal(printed.run?.status, 'completed', result.stderr);
    assert.equal(printed.run?.workflow, 'plan');
  });
});
