import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../../src/cli/council';
import type { DeepWorkResult } from '../../../../src/cli/deepWork/deepWorkRun';
import { RunFiles } from '../../../../src/cli/deepWork/runFiles';
import { FIXTURE_FILES, pipelineModel } from '../../../support/pipelineScript';

/** Runs `main` quietly; returns the exit code and what it printed. */
async function run(argv: readonly string[], project: string) {
  const out: string[] = [];
  const err: string[] = [];
  const { write: stdout } = process.stdout;
  const { write: stderr } = process.stderr;
  process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(chunk) > 0) as typeof process.stderr.write;
  try {
    const code = await main(argv, project, pipelineModel());
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

describe("the command's run files and ticket changes", function () {
  this.timeout(30_000);
  let project: string;
  let runId: string;
  let file: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'council-runs-'));
    for (const [path, text] of Object.entries(FIXTURE_FILES)) {
      await mkdir(join(project, path, '..'), { recursive: true });
      await writeFile(join(project, path), text);
    }
    const done = JSON.parse(
      (await run(['plan', 'Add subtraction', '--yes', '--json'], project)).stdout,
    ) as DeepWorkResult;
    runId = done.run?.runId ?? '';
    file = new RunFiles(project).fileOf(runId);
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  it('a damaged run file is refused with what to do and left as it is', async () => {
    await writeFile(file, '{ not json');
    const resumed = await run(['plan', '--run', runId, '--action', 'resume'], project);
    assert.equal(resumed.code, 1);
    assert.match(resumed.stderr, /cannot be resumed: .*not JSON.*left as it is/);
    assert.equal(await readFile(file, 'utf8'), '{ not json');
  });

  it('a run saved by a newer Council is never resumed or overwritten', async () => {
    const newer = { ...(JSON.parse(await readFile(file, 'utf8')) as object), version: 99 };
    await writeFile(file, JSON.stringify(newer));
    const resumed = await run(['plan', '--run', runId, '--action', 'abort'], project);
    assert.equal(resumed.code, 1);
    assert.match(resumed.stderr, /newer/i);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), newer);
  });

  it('changes that no longer fit the files write nothing, even with --yes', async () => {
    await mkdir(join(project, 'test'), { recursive: true });
    await writeFile(join(project, 'test', 'T-1.test.ts'), 'already here\n');
    const applied = await run(['plan', '--run', runId, '--apply', 'T-1', '--yes'], project);
    assert.equal(applied.code, 1);
    assert.match(applied.stderr, /Nothing applied: test\/T-1\.test\.ts already exists/);
    assert.equal(await readFile(join(project, 'src/util/math.ts'), 'utf8'), FIXTURE_FILES['src/util/math.ts']);
    const unknown = await run(['plan', '--run', runId, '--apply', 'T-9', '--yes'], project);
    assert.match(unknown.stderr, /no proposal for T-9/);
  });
});
