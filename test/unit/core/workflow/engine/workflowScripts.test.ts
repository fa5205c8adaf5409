import { runSpent } from '../../../../../src/core/workflow/engine/workflowRunState';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GapCheckDefinition } from '../../../../../src/core/workflow/definition/workflowDefinition';
import { InMemoryRunOutputs } from '../../../../support/inMemoryRunOutputs';
import { InMemoryWorkspaceReader } from '../../../../support/inMemoryWorkspaceReader';
import { QuickJsSandbox } from '../../../../../src/core/workflow/sandbox/quickJsSandbox';
import { ScriptedModel } from '../../../../support/scriptedModel';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { REPO_ROOT } from '../../../../support/nodePersonaSource';
import { echoModel, FOLDER, phase, run, strict, workflow } from './workflowHarness';

const wasm = readFileSync(
  join(REPO_ROOT, 'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm'),
);
const sandbox = new QuickJsSandbox(async () => new Uint8Array(wasm));

const main = (script: string) =>
  ({ mode: 'loose', behavior: 'main-only', mainScript: script, suggestedSubagents: [] }) as const;
const failure = (outcome: { status: string; message?: string }) =>
  outcome.status === 'failed' ? (outcome.message ?? '') : `not failed: ${outcome.status}`;

describe('workflow engine: scripts in the sandbox', function () {
  this.timeout(20_000);

  it('an adaptive phase spawns its `always` agents and what its script returns', async () => {
    const definition = workflow([
      phase('scan', {
        mode: 'adaptive',
        behavior: 'parallel',
        always: [{ type: 'reviewer', config: {} }],
        adaptiveScript:
          "return context.feature.flags.includes('backend') ? [{ type: 'code-scout', config: { focus: 'api' } }] : [];",
      }),
    ]);
    const withFlag = await run(definition, {
      sandbox,
      start: { runId: 'wf-00000000-0000-4000-8000-000000000001', goal: 'Review.', flags: ['backend'] },
    });
    assert.equal(withFlag.outcome.status, 'completed');
    assert.deepEqual(withFlag.outcome.state.context.deliverables.map(d => d.subagent).sort(), [
      'code-scout',
      'reviewer',
    ]);
    const without = await run(definition, { sandbox });
    assert.deepEqual(
      without.outcome.state.context.deliverables.map(d => d.subagent),
      ['reviewer'],
    );
  });

  it('an adaptive script that returns an unknown type stops the run naming the file, phase and type', async () => {
    const definition = workflow([
      phase('scan', {
        mode: 'adaptive',
        behavior: 'parallel',
        always: [],
        adaptiveScript: "return [{ type: 'nope' }]",
      }),
    ]);
    const { outcome } = await run(definition, { sandbox });
    assert.match(
      failure(outcome),
      /^\.council\/workflows\/review\.yaml, phase `scan`, adaptive script: It returned the unknown subagent type `nope`; known types: code-scout/,
    );
  });

  it('a main script thinks with the model and writes deliverables; the request is counted', async () => {
    const model = new ScriptedModel(() => 'Synthesized plan.', { supportsToolCalling: false });
    const { outcome, outputs } = await run(
      workflow([
        phase(
          'final',
          main(
            "const plan = await thinkHard('Synthesize: ' + context.goal); await writeFile('final-plan.md', '# Plan\\n' + plan); return 1;",
          ),
        ),
      ]),
      { sandbox, model },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(outputs.files.get(`${FOLDER}/final-plan.md`), '# Plan\nSynthesized plan.');
    assert.deepEqual(
      outcome.state.context.deliverables.map(d => [d.phase, d.subagent, d.path]),
      [['final', 'main', `${FOLDER}/final-plan.md`]],
    );
    assert.equal(runSpent(outcome.state).requests, 1);
    assert.match(JSON.stringify(model.requests[0]?.messages), /Synthesize: Review the app module\./);
  });

  it('writeFile outside the run folder is refused and nothing is written; the script sees the refusal as an error', async () => {
    const outputs = new InMemoryRunOutputs(FOLDER);
    const caught = await run(
      workflow([
        phase(
          'final',
          main(
            "try { await writeFile('../../x', 'evil'); } catch (e) { await writeFile('caught.md', String(e.message)); }",
          ),
        ),
      ]),
      { sandbox, outputs },
    );
    assert.equal(caught.outcome.status, 'completed');
    assert.match(
      outputs.files.get(`${FOLDER}/caught.md`) ?? '',
      /Refused to write `\.\.\/\.\.\/x`: it leaves the run folder/,
    );
    assert.deepEqual([...outputs.files.keys()].sort(), [`${FOLDER}/caught.md`, `${FOLDER}/metadata.json`]);
    const uncaught = await run(workflow([phase('final', main("await writeFile('/etc/passwd', 'x');"))]), { sandbox });
    assert.match(
      failure(uncaught.outcome),
      /phase `final`, main agent script.*Refused to write `\/etc\/passwd`: it is an absolute path/,
    );
  });

  it('readFile reads the workspace and refuses paths outside it', async () => {
    const { outcome, outputs } = await run(
      workflow([
        phase(
          'final',
          main(
            "const a = await readFile('src/app.ts'); let b; try { await readFile('../secret'); } catch (e) { b = e.message; } await writeFile('r.md', a + '|' + b);",
          ),
        ),
      ]),
      { sandbox },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(
      outputs.files.get(`${FOLDER}/r.md`),
      'export const app = 1;\n|readFile: `../secret` is outside the workspace; use a workspace-relative path.',
    );
  });

  it('readFile follows the agents’ rule: VCS, dependency and build folders and binary files are refused', async () => {
    const reader = new InMemoryWorkspaceReader({
      '.git/config': '[remote "origin"]\n\turl = https://token@example.com/repo\n',
      'node_modules/x/index.js': 'module.exports = 1;\n',
      'logo.png': 'PNG',
      'data.txt': 'a\u0000b',
      'src/app.ts': 'export const app = 1;\n',
    });
    const attempts = ['.git/config', 'node_modules/x/index.js', 'logo.png', 'data.txt', 'src/app.ts'];
    const { outcome, outputs } = await run(
      workflow([
        phase(
          'final',
          main(
            `const out = []; for (const p of ${JSON.stringify(attempts)}) { try { out.push(p + ': read ' + (await readFile(p)).length); } catch (e) { out.push(p + ': ' + e.message); } } await writeFile('r.md', out.join('\\n'));`,
          ),
        ),
      ]),
      { sandbox, reader },
    );
    assert.equal(outcome.status, 'completed');
    const lines = outputs.files.get(`${FOLDER}/r.md`)?.split('\n') ?? [];
    for (const refused of lines.slice(0, 4))
      assert.match(refused, /is ignored \(dependencies, VCS data or build output\) or binary/);
    assert.equal(lines[4], 'src/app.ts: read 22');
  });

  it('a run writes at most its files and bytes: a writing loop stops with a clear error, and nothing past the limit is written', async () => {
    const files = await run(
      workflow([phase('write', main("for (let i = 0; ; i++) await writeFile('f' + i + '.md', 'x');"))]),
      { sandbox, limits: { maxFiles: 5 } },
    );
    assert.match(
      failure(files.outcome),
      /Refused to write `\.council\/runs\/[^`]+\/f5\.md`: a run may write at most 5 files/,
    );
    assert.equal([...files.outputs.files.keys()].filter(path => /\/f\d+\.md$/.test(path)).length, 5);
    const bytes = await run(
      workflow([phase('write', main("for (let i = 0; ; i++) await writeFile('b' + i + '.md', 'x'.repeat(400));"))]),
      { sandbox, limits: { maxBytes: 1_000 } },
    );
    assert.match(
      failure(bytes.outcome),
      /Refused to write `[^`]+\/b2\.md`: a run may write at most 200 files and 1000 bytes in all, and this would make 3 files, 1\.2 KB\./,
    );
    // Writing one file again replaces its size instead of adding to it.
    const again = await run(
      workflow([
        phase('write', main("for (let i = 0; i < 20; i++) await writeFile('same.md', 'x'.repeat(400)); return 1;")),
      ]),
      { sandbox, limits: { maxBytes: 1_000 } },
    );
    assert.equal(again.outcome.status, 'completed');
  });

  it("readFile reads the run's own files too, by the path context.deliverables gives or relative to the run folder", async () => {
    const { outcome, outputs } = await run(
      workflow([
        phase('scan', strict('reviewer')),
        phase(
          'final',
          main(
            "const a = await readFile(context.deliverables[0].path); const b = await readFile('scan/reviewer.md'); await writeFile('r.md', String(a === b) + ':' + a.slice(0, 8));",
          ),
        ),
      ]),
      { sandbox },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(outputs.files.get(`${FOLDER}/r.md`), 'true:# Report');
  });

  it('a runaway script is stopped with the file, the phase and the limit; the run stays resumable at that phase @slow', async () => {
    const definition = workflow([phase('scan', strict('reviewer')), phase('loop', main('while (true) {}'))]);
    const { outcome } = await run(definition, { sandbox });
    assert.match(
      failure(outcome),
      /^\.council\/workflows\/review\.yaml, phase `loop`, main agent script: .*CPU.*Fix the workflow file, then resume the run\.$/,
    );
    assert.equal(outcome.state.nextPhase, 'loop');
    assert.deepEqual(outcome.state.context.phases.completed, ['scan']);
  });

  it('a call the script never awaited that fails fails the script, naming the file, phase and role', async () => {
    const lost: [string, RegExp][] = [
      // A synchronous helper first: every host call is numbered, so the lost one is still told apart.
      [
        "files_exist(['a.md']); writeFile('../../x.md', 'a'); return 1;",
        /^\.council\/workflows\/review\.yaml, phase `scan`, main agent script: writeFile\(\) failed and the script did not await it: Refused to write `\.\.\/\.\.\/x\.md`.*Await the call \(in a try\/catch to go on without it\)\./,
      ],
      // Settled before the script ended, and after it.
      [
        "readFile('nope.md'); await readFile('src/app.ts'); return 1;",
        /main agent script: readFile\(\) failed and the script did not await it: readFile: there is no file `nope\.md` in the workspace\. Await/,
      ],
      ["readFile('nope.md'); return 1;", /main agent script: readFile\(\) failed and the script did not await it/],
    ];
    for (const [script, expected] of lost) {
      const { outcome } = await run(workflow([phase('scan', main(script))]), { sandbox });
      assert.match(failure(outcome), expected, script);
    }
    const handled = [
      "try { await writeFile('../../x.md', 'a'); } catch { return 'caught'; }",
      "const p = readFile('nope.md'); await readFile('src/app.ts'); return await p.catch(() => 'caught later');",
      "return (await Promise.all([readFile('src/app.ts'), readFile('src/app.ts')])).length;",
      "return await readFile('src/app.ts').then(text => text.length).finally(() => {});",
    ];
    for (const script of handled) {
      const { outcome } = await run(workflow([phase('scan', main(script))]), { sandbox });
      assert.equal(outcome.status, 'completed', `${script}: ${failure(outcome)}`);
    }
  });

  it('data nested too deep or circular is refused naming the site, never as the engine overflowing its stack', async () => {
    const deep = 'let v = {}; let c = v; for (let i = 0; i < 5000; i++) { c.a = {}; c = c.a; }';
    const cases: [string, RegExp][] = [
      [
        `${deep} return v;`,
        /main agent script: The script's result is not JSON: The value is nested more than 64 levels deep/,
      ],
      [
        `${deep} await thinkHard(v);`,
        /main agent script \(line 1\): .*An argument of thinkHard\(\) is nested more than 64 levels deep/,
      ],
      [
        `${deep} return JSON.stringify(v).length;`,
        /The value given to JSON\.stringify\(\) is nested more than 64 levels deep/,
      ],
      ['const a = {}; a.self = a; return a;', /main agent script: The script's result is not JSON: circular reference/],
      ["const a = {}; a.self = a; await writeFile('x.md', a);", /main agent script \(line 1\): .*circular reference/],
    ];
    for (const [script, expected] of cases) {
      const { outcome } = await run(workflow([phase('scan', main(script))]), { sandbox });
      assert.match(failure(outcome), expected, script.slice(-40));
    }
    // A script cannot switch the check off by patching the built-ins it uses.
    const { outcome } = await run(
      workflow([
        phase('scan', main(`Map.prototype.set = () => {}; WeakSet.prototype.has = () => true; ${deep} return v;`)),
      ]),
      { sandbox },
    );
    assert.match(failure(outcome), /nested more than 64 levels deep/);
  });

  it('the script gets the checkpoint feedback as `feedback`', async () => {
    const definition = workflow([
      phase('scan', strict('reviewer'), { checkpoint: { kind: 'approval' } }),
      phase('final', main("await writeFile('f.md', String(feedback));")),
    ]);
    const first = await run(definition, { sandbox });
    const done = await run(definition, {
      sandbox,
      resume: { state: first.outcome.state, decision: { option: 1, feedback: 'Be brief.' } },
      outputs: first.outputs,
    });
    assert.equal(done.outputs.files.get(`${FOLDER}/f.md`), 'Be brief.');
  });
});

describe('workflow engine: gap checks and conditions', function () {
  this.timeout(20_000);

  const todoThenDone = () =>
    new ScriptedModel((_r, index) => (index === 0 ? '# Review\n\nTODO: finish' : '# Review\n\nAll done.'), {
      supportsToolCalling: false,
    });
  const gapScript = (action: string, extra = '') =>
    ({
      kind: 'script',
      maxIterations: 3,
      script: `const gaps = identifyGaps(context.deliverables); if (gaps.length === 0) return { status: 'complete' }; return { status: 'incomplete', gaps, action: '${action}'${extra} };`,
    }) satisfies GapCheckDefinition;

  it('retry: reruns the phase with the gaps as feedback until the script says complete; each check recorded', async () => {
    const model = todoThenDone();
    const { outcome } = await run(workflow([phase('scan', strict('reviewer'), { gapCheck: gapScript('retry') })]), {
      sandbox,
      model,
    });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(
      outcome.state.context.gap_checks.map(r => [r.iteration, r.status, r.action_taken]),
      [
        [1, 'incomplete', 'retry'],
        [2, 'complete', 'none'],
      ],
    );
    assert.match(outcome.state.context.gap_checks[0]?.gaps[0] ?? '', /still has a TODO marker/);
    assert.match(JSON.stringify(model.requests[1]?.messages), /found gaps; address them/);
  });

  it('spawn_additional: spawns the named agents and records them', async () => {
    const gapCheck: GapCheckDefinition = {
      kind: 'script',
      maxIterations: 3,
      script:
        "if (context.deliverables.some(d => d.subagent === 'test-planner')) return { status: 'complete' };" +
        " return { status: 'incomplete', gaps: ['No test plan'], action: 'spawn_additional', additionalAgents: [{ type: 'test-planner', config: {} }] };",
    };
    const { outcome } = await run(workflow([phase('scan', strict('reviewer'), { gapCheck })]), {
      sandbox,
      model: todoThenDone(),
    });
    assert.equal(outcome.status, 'completed');
    const [first] = outcome.state.context.gap_checks;
    assert.deepEqual(first?.agents_spawned, ['test-planner']);
    assert.ok(outcome.state.context.deliverables.some(d => d.subagent === 'test-planner'));
  });

  it('escalate: pauses to ask the user; "Continue anyway" completes the phase', async () => {
    const definition = workflow([
      phase('scan', strict('reviewer'), { gapCheck: gapScript('escalate', ", message: 'Gaps remain. Go on?'") }),
    ]);
    const first = await run(definition, { sandbox, model: todoThenDone() });
    assert.equal(first.outcome.status, 'paused');
    if (first.outcome.status !== 'paused') return;
    assert.equal(first.outcome.checkpoint.origin, 'gap_check');
    assert.match(first.outcome.checkpoint.prompt, /^Gaps remain\. Go on\?\n\n- .*TODO marker/);
    const done = await run(definition, {
      sandbox,
      resume: { state: first.outcome.state, decision: { option: 0 } },
      outputs: first.outputs,
    });
    assert.equal(done.outcome.status, 'completed');
    assert.deepEqual(done.outcome.state.context.phases.completed, ['scan']);
  });

  it('gives up after max_iterations and asks the user instead of looping', async () => {
    const always = new ScriptedModel(() => '# Review\n\nTODO', { supportsToolCalling: false });
    const { outcome } = await run(
      workflow([phase('scan', strict('reviewer'), { gapCheck: { ...gapScript('retry'), maxIterations: 2 } })]),
      { sandbox, model: always },
    );
    assert.equal(outcome.status, 'paused');
    assert.deepEqual(
      outcome.state.context.gap_checks.map(r => r.action_taken),
      ['retry', 'gave_up'],
    );
    assert.equal(always.callCount, 2);
    assert.match(outcome.status === 'paused' ? outcome.checkpoint.prompt : '', /still has gaps after 2 attempts/);
  });

  it('criteria: each check is an expression over the helpers; a failure with on_failure abort ends the run', async () => {
    const gapCheck: GapCheckDefinition = {
      kind: 'criteria',
      maxIterations: 3,
      criteria: [
        { name: 'Review written', check: "files_exist(['scan/reviewer.md'])" },
        { name: 'No TODOs left', check: '!contains_todos(deliverables)' },
        // A file named by the end of its path is read too.
        { name: 'No TODOs in the review', check: "!contains_todos(['reviewer.md'])" },
      ],
      onFailure: { action: 'abort', message: 'Quality criteria not met.', additionalAgents: [] },
    };
    const { outcome } = await run(workflow([phase('scan', strict('reviewer'), { gapCheck })]), {
      sandbox,
      model: new ScriptedModel(() => '# R\n\nTODO', { supportsToolCalling: false }),
    });
    assert.equal(outcome.status, 'aborted');
    assert.equal(outcome.status === 'aborted' ? outcome.message : '', 'Quality criteria not met.');
    assert.deepEqual(outcome.state.context.gap_checks[0]?.gaps, ['No TODOs left', 'No TODOs in the review']);
  });

  it('a checkpoint with a false condition is not shown; a true one is', async () => {
    const options = [{ label: 'Go', withFeedback: false, onSelect: { action: 'continue' as const } }];
    const off = await run(
      workflow([
        phase('scan', strict('reviewer'), {
          checkpoint: {
            kind: 'custom',
            condition: 'context.subagents_spawned > 5',
            prompt: 'Look?',
            showFiles: [],
            options,
          },
        }),
      ]),
      { sandbox },
    );
    assert.equal(off.outcome.status, 'completed');
    const on = await run(
      workflow([
        phase('scan', strict('reviewer'), {
          checkpoint: {
            kind: 'custom',
            condition: 'context.subagents_spawned > 0',
            prompt: 'Look?',
            showFiles: [],
            options,
          },
        }),
      ]),
      { sandbox },
    );
    assert.equal(on.outcome.status, 'paused');
  });

  it('a skill whose condition is false does not run', async () => {
    const { outcome } = await run(
      workflow([
        phase('scan', strict('reviewer'), {
          skills: [{ name: 'writer', condition: "context.feature.flags.includes('docs')", args: [] }],
        }),
      ]),
      { sandbox, model: echoModel() },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.context.subagents_spawned, 1);
  });

  describe('what a script may spend', () => {
    const loop = (code: string, limits = { maxModelCalls: 5, maxTokens: 200_000, maxHostCalls: 50 }) =>
      ({ spending: { limits: {}, prices: new PriceBook(), script: limits } }) as const;
    const slowModel = () => new ScriptedModel(() => 'ok', { supportsToolCalling: false, latencyMs: 20 });

    it('an awaited thinkHard loop stops at the script’s model-call cap, naming the site and the setting', async () => {
      const model = new ScriptedModel(() => 'ok', { supportsToolCalling: false });
      const { outcome } = await run(workflow([phase('think', main("for (;;) await thinkHard('x');"))]), {
        sandbox,
        model,
        ...loop(''),
      });
      assert.match(
        failure(outcome),
        /^\.council\/workflows\/review\.yaml, phase `think`, main agent script: The script has used 5 of its 5 model requests\. Raise `council\.budget\.scriptMaxModelCalls` in the settings, then resume the run\.$/,
      );
      assert.equal(model.requests.length, 5);
      const line = outcome.state.spending?.find(l => l.who === 'script (main agent script)');
      assert.deepEqual([line?.step, line?.requests], ['phase think', 5]);
    });

    it('catching the refusal does not get past the cap: the script still fails', async () => {
      const model = new ScriptedModel(() => 'ok', { supportsToolCalling: false });
      const { outcome } = await run(
        workflow([
          phase('think', main("for (let i = 0; i < 40; i++) { try { await thinkHard('x'); } catch {} } return 1;")),
        ]),
        { sandbox, model, ...loop('') },
      );
      assert.match(failure(outcome), /The script has used 5 of its 5 model requests/);
      assert.equal(model.requests.length, 5);
    });

    it('calls started together: the cap holds, and nothing the script started runs after it ends', async () => {
      const model = slowModel();
      const { outcome } = await run(
        workflow([
          phase(
            'think',
            main("const all = []; for (let i = 0; i < 30; i++) all.push(thinkHard('x')); await Promise.all(all);"),
          ),
        ]),
        { sandbox, model, ...loop('') },
      );
      assert.match(failure(outcome), /The script has used 5 of its 5 model requests/);
      const sent = model.requests.length;
      assert.ok(sent <= 5, `sent ${sent}`);
      await new Promise(resolve => setTimeout(resolve, 100));
      assert.equal(model.requests.length, sent, 'no request after the script ended');
      // Every request it sent is in the run's ledger before the run reports.
      assert.equal(
        outcome.state.spending?.reduce((n, l) => n + l.requests, 0),
        sent,
      );
    });

    it('a script that returns with calls in flight has them cancelled and counted before the run goes on', async () => {
      const model = new ScriptedModel(() => 'ok', { supportsToolCalling: false, latencyMs: 2_000 });
      const started = Date.now();
      const { outcome } = await run(workflow([phase('think', main("thinkHard('a'); thinkHard('b'); return 1;"))]), {
        sandbox,
        model,
        ...loop(''),
      });
      assert.equal(outcome.status, 'completed');
      assert.ok(Date.now() - started < 1_500, 'the pending calls were cancelled, not waited out');
      const sent = model.requests.length;
      assert.equal(outcome.state.spending?.reduce((n, l) => n + l.requests, 0) ?? 0, sent);
      await new Promise(resolve => setTimeout(resolve, 100));
      assert.equal(model.requests.length, sent, 'no request after the script ended');
    });

    it('an endless un-awaited loop stops at the host-call cap with a clear message, not an engine error', async () => {
      const model = slowModel();
      const { outcome } = await run(workflow([phase('think', main("for (;;) thinkHard('x');"))]), {
        sandbox,
        model,
        ...loop('', { maxModelCalls: 5, maxTokens: 200_000, maxHostCalls: 300 }),
      });
      assert.match(
        failure(outcome),
        /phase `think`, main agent script.*more than its 300 calls to the host .*Raise `council\.budget\.scriptMaxHostCalls` in the settings, or make fewer calls, then resume the run\./,
      );
      assert.ok(model.requests.length <= 5);
    });

    it('the run’s own budget stops the run (not just the script) and says which setting to raise', async () => {
      const model = new ScriptedModel(() => 'ok', { supportsToolCalling: false });
      const { outcome } = await run(workflow([phase('think', main("for (;;) await thinkHard('x');"))]), {
        sandbox,
        model,
        spending: { limits: { maxRequests: 3 }, prices: new PriceBook() },
      });
      assert.match(
        failure(outcome),
        /^This `review` workflow run has used 3 of its 3 model requests\. Raise `council\.budget\.runMaxRequests` in the settings, then press Try again/,
      );
      assert.equal(model.requests.length, 3);
    });

    it('a token cap cuts the script off once its tokens are spent', async () => {
      const model = new ScriptedModel(() => 'word '.repeat(400), { supportsToolCalling: false });
      const { outcome } = await run(workflow([phase('think', main("for (;;) await thinkHard('x');"))]), {
        sandbox,
        model,
        ...loop('', { maxModelCalls: 100, maxTokens: 2_000, maxHostCalls: 1_000 }),
      });
      assert.match(failure(outcome), /The script has used .* of its 2\.0k tokens.*scriptMaxTokens/);
      const spent = outcome.state.spending?.reduce((n, l) => n + l.inputTokens + l.outputTokens, 0) ?? 0;
      assert.ok(spent <= 2_000, `spent ${spent}`);
    });
  });
});
