import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { quickJsAlias } from '../../scripts/quickJsAlias.mjs';
import { CancellationScope } from '../../src/core/llm/cancellationScope';
import { neverCancelled } from '../../src/core/llm/languageModel';
import { HARD_STOP_GRACE_MS, WorkerSandbox, type ScriptWorker } from '../../src/core/workflow/sandbox/workerSandbox';
import type { FromScriptWorker, ToScriptWorker } from '../../src/core/workflow/sandbox/scriptWorker';
import { nodeScriptSandbox } from '../../src/node/nodeScriptSandbox';
import { REPO_ROOT } from '../support/nodePersonaSource';
import { phase, run, workflow } from '../unit/core/workflow/engine/workflowHarness';
import { QUICKJS_WASM_PATH } from '../support/quickJsWasm';

/** The worker bundled as the extension bundles it (esbuild, Node, CommonJS), into a temporary folder. */
function bundledWorker(): string {
  const outfile = join(mkdtempSync(join(tmpdir(), 'council-worker-')), 'scriptWorker.js');
  buildSync({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['src/node/scriptWorker.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    alias: quickJsAlias,
    logLevel: 'error',
  });
  return outfile;
}

/** A worker that plays `script` for each run it is sent (posting to the host as the real one does). */
function fakeWorker(
  script: (id: number, post: (message: FromScriptWorker) => void) => Promise<void>,
  onTerminate: () => void,
): ScriptWorker {
  let handler: (message: FromScriptWorker) => void = () => {};
  return {
    post: (message: ToScriptWorker) => {
      if (message.kind === 'run') void script(message.id, reply => handler(reply));
    },
    onMessage: receive => (handler = receive),
    terminate: onTerminate,
    onExit: () => {},
  };
}

/** The Node host's sandbox. */
const sandbox = nodeScriptSandbox(bundledWorker(), QUICKJS_WASM_PATH);

/** An object with 200k keys: a loop of `{...o}` spends seconds between two interrupt checks. */
const SPREAD_LOOP = "const o = {}; for (let i = 0; i < 200000; i++) o['k' + i] = i; while (true) { ({ ...o }); }";

describe('scripts in a worker thread (the Node extension host)', function () {
  this.timeout(30_000);

  it('runs a script off the host thread, calling host functions back on the host', async () => {
    const calls: string[] = [];
    const outcome = await sandbox.run({
      mode: 'body',
      code: "const a = await ask('one'); let b; try { await fail(); } catch (e) { b = e.message; } return { a, b, c: context.n };",
      globals: { context: { n: 3 } },
      functions: {
        ask: async value => (calls.push(String(value)), `got ${String(value)}`),
        fail: () => Promise.reject(new Error('no')),
      },
    });
    assert.deepEqual(outcome.ok ? outcome.value : outcome.failure, { a: 'got one', b: 'no', c: 3 });
    assert.deepEqual(calls, ['one']);
    assert.equal(outcome.hostCalls, 2);
  });

  it('a host call the script never awaited that fails is reported as in the web host (every call is async here)', async () => {
    const main = (script: string) =>
      ({ mode: 'loose', behavior: 'main-only', mainScript: script, suggestedSubagents: [] }) as const;
    const lost = await run(
      workflow([phase('scan', main("files_exist(['a.md']); writeFile('../../x.md', 'a'); return 1;"))]),
      { sandbox },
    );
    assert.equal(lost.outcome.status, 'failed');
    assert.match(
      lost.outcome.status === 'failed' ? lost.outcome.message : '',
      /phase `scan`, main agent script: writeFile\(\) failed and the script did not await it: Refused to write/,
    );
    // The synchronous helper, awaited or not, is no lost failure; an awaited refusal is the script's to handle.
    const handled = await run(
      workflow([
        phase('scan', main("files_exist(['a.md']); try { await writeFile('../../x.md', 'a'); } catch { return 1; }")),
      ]),
      { sandbox },
    );
    assert.equal(handled.outcome.status, 'completed');
  });

  it('terminates a script the engine cannot interrupt in time; the host thread stays free and the next script runs', async () => {
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 50);
    const started = performance.now();
    const outcome = await sandbox.run({ mode: 'body', code: SPREAD_LOOP, limits: { cpuMs: 200 } });
    const elapsed = performance.now() - started;
    clearInterval(ticking);
    assert.equal(outcome.ok ? 'ok' : outcome.failure.kind, 'timeout');
    assert.ok(elapsed < 200 + HARD_STOP_GRACE_MS + 1500, `stopped after ${Math.round(elapsed)} ms`);
    assert.ok(
      ticks >= Math.floor(elapsed / 50) - 6,
      `the host's timers kept running (${ticks} ticks in ${Math.round(elapsed)} ms)`,
    );
    const next = await sandbox.run({ mode: 'expression', code: '1 + 1' });
    assert.deepEqual(next.ok ? next.value : next.failure, 2);
  });

  it('an endless plain loop is still stopped by the engine at its CPU limit', async () => {
    const started = performance.now();
    const outcome = await sandbox.run({ mode: 'body', code: 'while (true) {}', limits: { cpuMs: 200 } });
    assert.equal(outcome.ok ? 'ok' : outcome.failure.kind, 'timeout');
    assert.ok(performance.now() - started < 200 + HARD_STOP_GRACE_MS, 'before the worker had to be terminated');
  });

  it("time awaiting host calls is not the script's: slow host calls do not trip the hard stop", async () => {
    const outcome = await sandbox.run({
      mode: 'body',
      code: 'for (let i = 0; i < 3; i++) await wait(); return 1',
      functions: { wait: () => new Promise(resolve => setTimeout(() => resolve(null), 600)) },
      limits: { cpuMs: 100 },
    });
    assert.deepEqual(outcome.ok ? outcome.value : outcome.failure, 1);
  });

  it('the same limit means the same in both hosts: busy traffic with the host is not a stuck script', async () => {
    // A worker whose script makes a host call every 50 ms of (fake) time for 5 s: far past 1000 ms of CPU plus the
    // grace in wall time, but never silent. The engine inside the worker counts its own CPU, as on the web host;
    // the hard stop is only for a worker that goes quiet.
    let clock = 0;
    let terminated = false;
    const worker = fakeWorker(
      async (id, post) => {
        for (let call = 0; call < 100; call++) {
          clock += 50;
          post({ kind: 'hostCall', id, callId: call, name: 'tick', args: [] });
          await new Promise(resolve => setTimeout(resolve, 3));
        }
        post({ kind: 'done', id, outcome: { ok: true, value: 1, cpuMs: 300, hostCalls: 100 } });
      },
      () => (terminated = true),
    );
    const busy = new WorkerSandbox(
      () => worker,
      () => clock,
    );
    const outcome = await busy.run({
      mode: 'body',
      code: 'x',
      functions: { tick: () => null },
      limits: { cpuMs: 1000 },
    });
    assert.deepEqual(outcome.ok ? outcome.value : outcome.failure, 1);
    assert.equal(terminated, false);

    // Silent for longer than the limit and the grace: that worker is stopped.
    clock = 0;
    const stuck = fakeWorker(
      async () => {
        clock += 1000 + HARD_STOP_GRACE_MS + 1;
        await new Promise(() => {});
      },
      () => (terminated = true),
    );
    const stopped = await new WorkerSandbox(
      () => stuck,
      () => clock,
    ).run({ mode: 'body', code: 'x', limits: { cpuMs: 1000 } });
    assert.equal(stopped.ok ? 'ok' : stopped.failure.kind, 'timeout');
    assert.equal(terminated, true);
  });

  it('Stop cancels a script waiting on the host', async () => {
    const scope = new CancellationScope(neverCancelled);
    const outcome = sandbox.run({
      mode: 'body',
      code: 'await never(); return 1',
      functions: { never: () => (setTimeout(() => scope.cancel(), 50), new Promise(() => {})) },
      signal: scope,
    });
    assert.equal(
      (await outcome).ok ? 'ok' : ((await outcome) as { failure: { kind: string } }).failure.kind,
      'cancelled',
    );
  });
});
