import * as assert from 'node:assert/strict';
import { QuickJsSandbox } from '../../../../../src/core/workflow/sandbox/quickJsSandbox';
import type { CancellationSignal } from '../../../../../src/core/llm/languageModel';
import type { JsonValue, ScriptOutcome, ScriptRequest } from '../../../../../src/core/workflow/sandbox/scriptSandbox';
import { loadQuickJsWasm } from '../../../../support/quickJsWasm';

const sandbox = new QuickJsSandbox(loadQuickJsWasm);
const body = (code: string, extra: Partial<ScriptRequest> = {}): Promise<ScriptOutcome> =>
  sandbox.run({ mode: 'body', code, ...extra });
const delay = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

function value(outcome: ScriptOutcome): JsonValue {
  assert.ok(outcome.ok, `expected a value, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}
function failure(outcome: ScriptOutcome) {
  assert.ok(!outcome.ok, `expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome.failure;
}
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** A signal the test cancels by hand. */
function cancellation(): CancellationSignal & { cancel(): void } {
  const listeners = new Set<() => unknown>();
  let cancelled = false;
  return {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    cancel() {
      cancelled = true;
      for (const listener of listeners) listener();
    },
  };
}

describe('QuickJsSandbox @slow', function () {
  this.timeout(20_000);

  describe('values in and out', () => {
    it('returns the value as a JSON copy; no return gives null', async () => {
      const context = { goal: 'Review', flags: ['a', 'b'] };
      const outcome = await body('return { sum: 1 + 2, flags: context.flags, context, text: `${context.goal}!` };', {
        globals: { context },
      });
      assert.deepEqual(value(outcome), { sum: 3, flags: ['a', 'b'], context, text: 'Review!' });
      assert.notEqual((value(outcome) as { context: unknown }).context, context);
      assert.equal(value(await body('const x = 1;')), null);
      assert.equal(value(await body('return undefined;')), null);
      assert.ok(outcome.ok && outcome.cpuMs >= 0 && outcome.hostCalls === 0);
    });

    it('expression mode evaluates one expression (comments and await allowed)', async () => {
      const globals = { context: { subagents_spawned: 3 } };
      assert.equal(
        value(await sandbox.run({ mode: 'expression', code: 'context.subagents_spawned > 2 // many', globals })),
        true,
      );
      assert.equal(
        value(
          await sandbox.run({
            mode: 'expression',
            code: 'await twice(21)',
            functions: { twice: async n => Number(n) * 2 },
          }),
        ),
        42,
      );
    });

    it('globals are deep-frozen, read-only copies: the script can change neither them nor the host object', async () => {
      const context = { a: 1, list: [1, 2], nested: { b: 'x' } };
      const outcome = await body(
        `let pushError = '';
         try { context.list.push(3); } catch (e) { pushError = e.name; }
         context.a = 5; context.nested.b = 'changed'; context = 'replaced';
         return [pushError, context.a, context.nested.b, Object.isFrozen(context.nested), Object.isFrozen(context.list)];`,
        { globals: { context } },
      );
      assert.deepEqual(value(outcome), ['TypeError', 1, 'x', true, true]);
      assert.deepEqual(context, { a: 1, list: [1, 2], nested: { b: 'x' } });
    });
  });

  describe('host functions', () => {
    it('sync and async host functions; arguments arrive as JSON copies; calls are counted', async () => {
      const seen: JsonValue[][] = [];
      const outcome = await body(
        `const sync = add(1, 2);
         const pending = later('x');
         const isPromise = pending instanceof Promise;
         const arg = { keep: 1, drop: undefined, fn() {}, when: new Date(0), list: [undefined] };
         echo(arg);
         return [sync, isPromise, await pending];`,
        {
          functions: {
            add: (a, b) => Number(a) + Number(b),
            later: async s => {
              await delay(5);
              return `${String(s)}!`;
            },
            echo: (...args) => {
              seen.push(args);
              return null;
            },
          },
        },
      );
      assert.deepEqual(value(outcome), [3, true, 'x!']);
      assert.deepEqual(seen, [[{ keep: 1, when: '1970-01-01T00:00:00.000Z', list: [null] }]]);
      assert.equal(outcome.hostCalls, 3);
    });

    it('Promise.all over host calls keeps the order of the calls, not of their completion', async () => {
      const outcome = await body('return await Promise.all([wait(60, "a"), wait(10, "b"), wait(30, "c")]);', {
        functions: {
          wait: async (ms, label) => {
            await delay(Number(ms));
            return label;
          },
        },
      });
      assert.deepEqual(value(outcome), ['a', 'b', 'c']);
      assert.equal(outcome.hostCalls, 3);
    });

    it('a host error reaches the script as an Error with the same message: catchable, else the run throws', async () => {
      const functions = {
        rejects: async () => {
          throw new Error('Refused to write `/etc/passwd`.');
        },
        throws: () => {
          throw new TypeError('bad argument');
        },
      };
      const caught = await body(
        `const messages = [];
         try { await rejects(); } catch (e) { messages.push(e instanceof Error, e.message); }
         try { throws(); } catch (e) { messages.push(e instanceof Error, e.message); }
         return messages;`,
        { functions },
      );
      assert.deepEqual(value(caught), [true, 'Refused to write `/etc/passwd`.', true, 'bad argument']);
      const uncaught = failure(await body('const x = 1;\nawait rejects();', { functions }));
      assert.equal(uncaught.kind, 'thrown');
      assert.match(uncaught.message, /Refused to write `\/etc\/passwd`\./);
      assert.equal(failure(await body('throws();', { functions })).kind, 'thrown');
    });

    it('the CPU limit does not count time spent awaiting the host', async () => {
      const { result: outcome, ms } = await timed(() =>
        body('for (let i = 0; i < 5; i++) await slow(); return "done";', {
          limits: { cpuMs: 200 },
          functions: { slow: () => delay(300).then(() => null) },
        }),
      );
      assert.equal(value(outcome), 'done');
      assert.ok(ms >= 1500, `took ${ms} ms`);
      assert.ok(outcome.cpuMs < 200, `cpuMs ${outcome.cpuMs}`);
      assert.equal(outcome.hostCalls, 5);
    });
  });

  describe('limits', () => {
    it('more than ten thousand un-awaited host calls end at the memory limit, not in an engine error', async () => {
      // Each pending call holds an engine promise; the engine's memory grows while one is created (a detached view).
      let calls = 0;
      // CPU time is generous here: on a busy 2-core machine 1 s of CPU can run out before 32 MiB of promises.
      const outcome = await body("for (;;) pending('x');", {
        limits: { cpuMs: 10_000 },
        functions: { pending: () => (calls++, new Promise<JsonValue>(() => {})) },
      });
      assert.deepEqual(failure(outcome), {
        kind: 'memory',
        message: 'The script used more than its 32 MiB of memory.',
      });
      // Each call holds its engine promise and the promise the script gets (which notes whether it was awaited).
      assert.ok(calls > 10_000, `${calls} calls`);
    });

    it('an endless loop stops at its CPU limit, also after an await, and the script cannot catch it', async () => {
      for (const code of [
        'while (true) {}',
        'await tick(); while (true) {}',
        'try { while (true) {} } catch { return "caught"; }',
      ]) {
        const { result, ms } = await timed(() =>
          body(code, { limits: { cpuMs: 300 }, functions: { tick: async () => null } }),
        );
        assert.deepEqual(
          failure(result),
          { kind: 'timeout', message: 'The script used more than its 300 ms of CPU time.' },
          code,
        );
        assert.ok(ms < 300 + 250, `${code}: ${ms} ms`);
        assert.ok(result.cpuMs >= 300);
      }
    });

    it('a memory bomb stops at the memory limit, quickly, even when the script catches the error', async () => {
      for (const code of [
        'const a = []; while (true) a.push("x".repeat(1e6));',
        'const a = []; try { while (true) a.push("x".repeat(1e6)); } catch (e) { return "survived"; }',
      ]) {
        const { result, ms } = await timed(() => body(code));
        assert.deepEqual(
          failure(result),
          { kind: 'memory', message: 'The script used more than its 32 MiB of memory.' },
          code,
        );
        assert.ok(ms < 2000, `${code}: ${ms} ms`);
      }
    });

    it('a script that uses most of its memory, but not more, succeeds', async () => {
      const code = 'const a = []; for (let i = 0; i < 20; i++) a.push("x".repeat(1 << 20)); return a.length;';
      assert.equal(value(await body(code, { limits: { cpuMs: 10_000 } })), 20);
    });

    it('a memory limit below the engine minimum still runs scripts', async () => {
      assert.equal(
        value(await body('return [1, 2, 3].map(x => x * 2).join();', { limits: { memoryBytes: 1024 * 1024 } })),
        '2,4,6',
      );
    });

    it('100 MB strings fail at once (memory or a RangeError), not after seconds', async () => {
      for (const code of [
        'return "x".repeat(1e8).length;',
        'let s = "x"; while (true) s += s;',
        'let s = "x".repeat(1 << 20); const parts = []; while (true) parts.push(s + parts.length); ',
      ]) {
        const { result, ms } = await timed(() => body(code));
        const { kind, message } = failure(result);
        assert.ok(
          kind === 'memory' || (kind === 'thrown' && /RangeError|string too long/.test(message)),
          `${code}: ${kind} ${message}`,
        );
        assert.ok(ms < 2000, `${code}: ${ms} ms`);
      }
    });

    it('one built-in call cannot run long: big repeat/pad results and huge sparse arrays are refused', async () => {
      for (const code of [
        '"x".repeat(3e7)',
        '"ab".padStart(2e6)',
        '"ab".padEnd(2e6)',
        'const a = []; a.length = 2 ** 32 - 1; a.indexOf(1);',
        'Array.prototype.join.call({ length: 2 ** 53 - 1 })',
        'new Array(1e8).fill(0)',
        '[].concat(new Array(1e8))',
        'const a = []; a.length = 2 ** 32 - 1; [[a]].flat(2);',
      ]) {
        const { result, ms } = await timed(() => body(code));
        const { kind, message } = failure(result);
        assert.equal(kind, 'thrown', code);
        assert.match(message, /RangeError: .*(1 MiB|at most \d+ elements)/, code);
        assert.ok(ms < 500, `${code}: ${ms} ms`);
      }
    });

    it('a loop of large built-in calls still stops near its CPU limit', async () => {
      for (const code of [
        'while (true) { try { "x".repeat(3e7); } catch {} }',
        'while (true) "x".repeat(1e6);',
        'const a = new Array(1e6).fill(1); while (true) a.indexOf(2);',
        'const a = new Array(1e6).fill(1); while (true) [...a];',
        'const a = new Uint8Array(1e6); while (true) [...a];',
        'const s = JSON.stringify(new Array(2e5).fill("abcdefghij")); while (true) JSON.parse(s);',
        'const o = {}; for (let i = 0; i < 2e5; i++) o["k" + i] = i; while (true) Object.assign({}, o);',
      ]) {
        const { result, ms } = await timed(() => body(code, { limits: { cpuMs: 300 } }));
        assert.equal(failure(result).kind, 'timeout', code);
        assert.ok(ms < 1500, `${code}: ${ms} ms`);
      }
    });

    it('the wrapped built-ins still behave as standard', async () => {
      const outcome = await body(
        `let sum = 0;
         for (const x of [1, 2, 3]) sum += x;
         return [sum, [...[1, 2]], Array.from([3]), [...new Uint8Array(2)], [...['a', 'b'].entries()], [[1, [2, [3]]], 4].flat(Infinity), [1, 2].flatMap(x => [x, [x]]),
           'ab'.repeat(2), '7'.padStart(3, '0'), 'x'.padEnd(2, '-'), [1, 2].join('+'), 'a,b'.split(','), Object.keys({ k: 1 }), Object.assign({}, { a: 1 }), JSON.parse('[1]'),
           [3, 1, 2].sort(), [1, 2, 3].indexOf(2), [].concat([1], 2, [[3]]), Array.prototype.values === Array.prototype[Symbol.iterator], 'abc'.replace('b', 'B')];`,
      );
      assert.deepEqual(value(outcome), [
        6,
        [1, 2],
        [3],
        [0, 0],
        [
          [0, 'a'],
          [1, 'b'],
        ],
        [1, 2, 3, 4],
        [1, [1], 2, [2]],
        'abab',
        '007',
        'x-',
        '1+2',
        ['a', 'b'],
        ['k'],
        { a: 1 },
        [1],
        [1, 2, 3],
        1,
        [1, 2, [3]],
        true,
        'aBc',
      ]);
    });

    it('a result larger than the output limit, or not JSON, fails as output', async () => {
      const big = failure(
        await body(
          'const mb = "x".repeat(1 << 20); const out = []; for (let i = 0; i < 10; i++) out.push(mb); return out;',
        ),
      );
      assert.equal(big.kind, 'output');
      assert.match(big.message, /10485\d\d\d bytes of JSON, more than its 1048576-byte limit/);
      assert.equal(value(await body('return "abcdefgh";', { limits: { outputBytes: 10 } })), 'abcdefgh');
      assert.equal(failure(await body('return "abcdefghi";', { limits: { outputBytes: 10 } })).kind, 'output');
      assert.equal(failure(await body('return "ééééé";', { limits: { outputBytes: 10 } })).kind, 'output');
      for (const code of [
        'return () => 1;',
        'const a = {}; a.self = a; return a;',
        'return { a: undefined };',
        'return [1n];',
        'return Symbol("s");',
      ]) {
        const { kind, message } = failure(await body(code));
        assert.equal(kind, 'output', code);
        assert.match(message, /^The script's result is not JSON: /, code);
      }
    });

    it('deep recursion fails as stack, with its line', async () => {
      const { kind, line } = failure(await body('const a = 1;\nconst down = n => down(n + 1) + 1;\nreturn down(0);'));
      assert.equal(kind, 'stack');
      assert.equal(line, 2);
    });
  });

  describe('errors', () => {
    it('a syntax error names its line', async () => {
      const syntax = failure(await body('const a = 1;\nconst b = ;\nreturn a;'));
      assert.equal(syntax.kind, 'syntax');
      assert.equal(syntax.line, 2);
      assert.match(syntax.message, /^The script has a syntax error: .+\.$/);
      assert.equal(failure(await sandbox.run({ mode: 'expression', code: 'context.a ===' })).kind, 'syntax');
    });

    it('a thrown error gives its message and line', async () => {
      const thrown = failure(await body('const a = 1;\n\nthrow new TypeError("bad input");'));
      assert.deepEqual(thrown, {
        kind: 'thrown',
        message: 'The script threw an error: TypeError: bad input.',
        line: 3,
      });
      assert.match(failure(await body('throw "plain";')).message, /: plain\.$/);
      assert.equal(failure(await body('null.x;')).kind, 'thrown');
    });

    it('a script awaiting a promise nothing settles fails instead of hanging', async () => {
      assert.equal(failure(await body('await new Promise(() => {});')).kind, 'thrown');
    });
  });

  describe('isolation', () => {
    it('the global object holds only standard built-ins plus the injected names', async () => {
      const bare = value(await body('return Object.getOwnPropertyNames(globalThis).sort();')) as string[];
      for (const name of [
        'fetch',
        'require',
        'process',
        'setTimeout',
        'WebAssembly',
        'self',
        'importScripts',
        'Buffer',
        'console',
        'std',
        'os',
        'module',
        'exports',
      ]) {
        assert.ok(!bare.includes(name), `${name} is visible`);
      }
      assert.ok(bare.includes('JSON') && bare.includes('Promise') && bare.includes('Object'));
      const injected = value(
        await body('return Object.getOwnPropertyNames(globalThis).sort();', {
          globals: { context: {} },
          functions: { readFile: () => '' },
        }),
      ) as string[];
      assert.deepEqual(injected, [...bare, 'context', 'readFile'].sort());
    });

    it('escape attempts see only the sandbox', async () => {
      const outcome = await body(
        `return [
           fn.constructor('return typeof process')(),
           fn.constructor.constructor('return typeof require')(),
           Function('return typeof globalThis.fetch')(),
           (0, eval)('typeof WebAssembly'),
           this === globalThis,
           typeof setTimeout,
           Object.getOwnPropertyNames(this).includes('process'),
           (() => { try { return typeof require('fs'); } catch (e) { return e.name; } })(),
         ];`,
        { functions: { fn: () => null } },
      );
      assert.deepEqual(value(outcome), [
        'undefined',
        'undefined',
        'undefined',
        'undefined',
        true,
        'undefined',
        false,
        'ReferenceError',
      ]);
      const imported = failure(await body("const fs = await import('fs'); return typeof fs.readFileSync;"));
      assert.equal(imported.kind, 'thrown');
      assert.match(imported.message, /fs/);
    });

    it('prototype pollution inside the sandbox does not reach host objects or later runs', async () => {
      const context = { a: 1 };
      const outcome = await body(
        `Object.prototype.polluted = 1;
         context.__proto__.viaContext = 1;
         Array.prototype.viaArray = 1;
         fn.__proto__.viaFunction = 1;
         return JSON.parse('{"__proto__": {"polluted": 2}, "b": 1}');`,
        { globals: { context }, functions: { fn: () => null } },
      );
      const result = value(outcome) as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(result), Object.prototype);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(({} as Record<string, unknown>).viaContext, undefined);
      assert.equal(([] as unknown as Record<string, unknown>).viaArray, undefined);
      assert.equal((Object.getPrototypeOf(context) as Record<string, unknown>).viaContext, undefined);
      assert.equal((Function.prototype as unknown as Record<string, unknown>).viaFunction, undefined);
      assert.deepEqual(value(await body('return [typeof ({}).polluted, typeof [].viaArray];')), [
        'undefined',
        'undefined',
      ]);
    });
  });

  describe('cancellation and concurrency', () => {
    it('cancelling during a pending host call ends the run as cancelled, promptly', async () => {
      const signal = cancellation();
      const started = performance.now();
      setTimeout(() => signal.cancel(), 50);
      const outcome = await body('await never(); return "finished";', {
        signal,
        functions: { never: () => new Promise<JsonValue>(() => {}) },
      });
      assert.deepEqual(failure(outcome), { kind: 'cancelled', message: 'The script was cancelled.' });
      assert.ok(performance.now() - started < 1000);
      assert.equal(outcome.hostCalls, 1);
    });

    it('a cancelled signal stops running code at the next interrupt check, and a run that starts cancelled does not start', async () => {
      const deadline = Date.now() + 100;
      const signal: CancellationSignal = {
        get isCancellationRequested() {
          return Date.now() > deadline;
        },
        onCancellationRequested: () => ({ dispose: () => undefined }),
      };
      const busy = await body('while (true) {}', { signal, limits: { cpuMs: 5000 } });
      assert.equal(failure(busy).kind, 'cancelled');
      assert.ok(busy.cpuMs < 1000);
      const done = cancellation();
      done.cancel();
      assert.equal(failure(await body('return 1;', { signal: done })).kind, 'cancelled');
    });

    it('20 runs at once, with host calls and a memory bomb among them, each get their own result', async () => {
      const runs = Array.from({ length: 20 }, (_, i) =>
        i === 7
          ? body('const a = []; while (true) a.push("x".repeat(1e6));')
          : body(
              'const before = await pause(context.n); globalThis.mine = context.n; await pause(context.n % 3); return [before, mine, context.n * 2];',
              {
                globals: { context: { n: i } },
                functions: {
                  pause: async ms => {
                    await delay(Number(ms) * 3);
                    return Number(ms);
                  },
                },
              },
            ),
      );
      const outcomes = await Promise.all(runs.map(async (run, i) => ({ i, outcome: await run })));
      for (const { i, outcome } of outcomes) {
        if (i === 7) assert.equal(failure(outcome).kind, 'memory');
        else assert.deepEqual(value(outcome), [i, i, i * 2], `run ${i}`);
      }
    });
  });
  describe('the engine kept between runs', () => {
    it('each run starts from a fresh runtime: globals, prototypes and a memory failure (its engine dropped) never carry over', async () => {
      const own = new QuickJsSandbox(loadQuickJsWasm);
      const first = await own.run({
        mode: 'body',
        code: 'globalThis.leak = 1; Array.prototype.leaked = true; return typeof leak;',
      });
      assert.equal(value(first), 'number');
      // The second run takes the engine the first left (a fresh runtime in it).
      const second = await own.run({ mode: 'body', code: 'return [typeof leak, [].leaked === undefined];' });
      assert.deepEqual(value(second), ['undefined', true]);
      const bomb = await own.run({ mode: 'body', code: 'let a = []; for (;;) a.push("x".repeat(1000));' });
      assert.equal(failure(bomb).kind, 'memory');
      const after = await own.run({ mode: 'body', code: 'return [typeof a, "y".repeat(10)];' });
      assert.deepEqual(value(after), ['undefined', 'yyyyyyyyyy']);
      // A different memory limit does not take an engine made for another.
      const small = await own.run({
        mode: 'body',
        code: 'let b = []; for (;;) b.push("x".repeat(1000));',
        limits: { memoryBytes: 2 * 1024 * 1024 },
      });
      assert.equal(failure(small).kind, 'memory');
    });
  });
});
