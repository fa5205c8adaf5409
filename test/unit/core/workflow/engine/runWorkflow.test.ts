import { runSpent } from '../../../../../src/core/workflow/engine/workflowRunState';
import * as assert from 'node:assert/strict';
import { CancellationScope } from '../../../../../src/core/llm/cancellationScope';
import { LanguageModelFailure, neverCancelled } from '../../../../../src/core/llm/languageModel';
import { ActionableError } from '../../../../../src/core/actionableError';
import type { AgentType } from '../../../../../src/core/workflow/engine/agentTypes';
import { InMemoryRunOutputs } from '../../../../support/inMemoryRunOutputs';
import type { ReadOnlyTools } from '../../../../../src/core/workflow/engine/skills';
import { ScriptedModel } from '../../../../support/scriptedModel';
import { downModel, echoModel, FOLDER, phase, run, strict, workflow } from './workflowHarness';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { REPETITION_BOUNDS } from '../../../../../src/core/workflow/engine/repetitionBounds';
import type { PhaseDefinition } from '../../../../../src/core/workflow/definition/workflowDefinition';

const approval = { kind: 'approval' } as const;

describe('workflow engine: phases, agents and deliverables', () => {
  it('runs a strict parallel phase: every subagent spawned once, each file recorded under the run folder', async () => {
    const { outcome, outputs } = await run(workflow([phase('scan', strict('reviewer', 'writer'))]));
    assert.equal(outcome.status, 'completed');
    const { context } = outcome.state;
    assert.equal(context.subagents_spawned, 2);
    const written = context.deliverables
      .map(d => [d.phase, d.subagent, d.path])
      .sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    assert.deepEqual(written, [
      ['scan', 'reviewer', `${FOLDER}/scan/reviewer.md`],
      ['scan', 'writer', `${FOLDER}/scan/writer.md`],
    ]);
    assert.ok(context.deliverables.every(d => d.size_bytes > 0));
    assert.deepEqual(context.phases.completed, ['scan']);
    assert.equal(outputs.files.get(`${FOLDER}/scan/reviewer.md`)?.startsWith('# Report'), true);
  });

  it('two agents of one type in a phase write two files, each numbered', async () => {
    const { outcome, outputs } = await run(workflow([phase('scan', strict('reviewer', 'writer', 'reviewer'))]));
    assert.equal(outcome.status, 'completed');
    assert.deepEqual([...outputs.files.keys()].filter(path => path.includes('/scan/')).sort(), [
      `${FOLDER}/scan/reviewer-1.md`,
      `${FOLDER}/scan/reviewer-2.md`,
      `${FOLDER}/scan/writer.md`,
    ]);
    assert.equal(outcome.state.context.deliverables.length, 3);
  });

  it('writes a subagent to its templated output_path', async () => {
    const definition = workflow([
      phase('scan', {
        mode: 'strict',
        behavior: 'sequential',
        subagents: [{ type: 'writer', config: { output_path: '{{output_dir}}/notes/{{phase_id}}.md' } }],
      }),
    ]);
    const { outcome, outputs } = await run(definition);
    assert.equal(outcome.status, 'completed');
    assert.ok(outputs.files.has(`${FOLDER}/notes/scan.md`), [...outputs.files.keys()].join(', '));
  });

  it('a sequential phase shows each agent the files written before it, fenced as data, without reading them back', async () => {
    const model = echoModel();
    const outputs = new InMemoryRunOutputs(FOLDER);
    let reads = 0;
    const read = outputs.read.bind(outputs);
    outputs.read = path => ((reads += 1), read(path));
    const { outcome } = await run(
      workflow([
        phase('scan', {
          mode: 'strict',
          behavior: 'sequential',
          subagents: [
            { type: 'reviewer', config: {} },
            { type: 'writer', config: {} },
          ],
        }),
      ]),
      { model, outputs },
    );
    assert.equal(reads, 0, 'the engine hands agents the files it wrote');
    assert.equal(outcome.status, 'completed');
    const second = JSON.stringify(model.requests[1]?.messages);
    assert.match(
      second,
      /<run-file path=\\"\.council\/runs\/[^"]+\/scan\/reviewer\.md\\" phase=\\"scan\\" by=\\"reviewer\\">/,
    );
    assert.match(second, /# Report 1/);
  });

  it('refuses an unknown subagent type with the known ones, and keeps the state resumable', async () => {
    const { outcome, saves } = await run(workflow([phase('scan', strict('code-scot'))]));
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /no subagent type `code-scot`. Known types: code-scout, pattern-analyzer, reviewer, test-planner, writer/,
    );
    assert.equal(outcome.state.nextPhase, 'scan');
    assert.ok(saves.length >= 1, 'the failure is saved');
  });

  it('enforces the per-phase subagent limit in one place', async () => {
    const { outcome } = await run(workflow([phase('scan', strict('writer', 'writer', 'writer'))]), {
      limits: { maxSubagentsPerPhase: 2 },
    });
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /asked for 3 subagents; a phase may spawn at most 2 per pass/,
    );
  });

  it('records what an agent’s own checks found with its phase, over every pass, in metadata.json', async () => {
    let pass = 0;
    const checker: AgentType = {
      type: 'checker',
      run: async () => {
        pass += 1;
        const finding = {
          code: 'REF-001',
          severity: 'warning' as const,
          message: `pass ${pass}`,
          where: '$.x',
          agent: 'checker-1',
        };
        return {
          summary: 'checked',
          files: [],
          audit: {
            checked: 2,
            findings: pass === 1 ? [finding, { ...finding, code: 'REF-002', severity: 'error' as const }] : [finding],
          },
        };
      },
    };
    const { outcome, outputs } = await run(
      workflow([phase('scan', strict('checker', 'checker')), phase('write', strict('writer'))]),
      { extraTypes: [checker] },
    );
    assert.equal(outcome.status, 'completed');
    const metadata = JSON.parse(outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}');
    const [scan, write] = metadata.phases;
    assert.equal(scan.audit.checked, 4);
    assert.deepEqual(
      scan.audit.findings.map((f: { code: string; message: string }) => `${f.code} ${f.message}`),
      ['REF-001 pass 1', 'REF-002 pass 1', 'REF-001 pass 2'],
    );
    assert.equal(write.audit, undefined, 'a phase whose agents check nothing has no audit');
    assert.equal(metadata.totals.audit_errors, 1);
  });

  it('writes metadata.json (spec 002 Metadata Output) with totals from the context', async () => {
    const { outcome, outputs } = await run(
      workflow([phase('scan', strict('reviewer')), phase('write', strict('writer'))]),
    );
    assert.equal(outcome.status, 'completed');
    const metadata = JSON.parse(outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}');
    assert.equal(metadata.workflow.name, 'review');
    assert.equal(metadata.workflow.execution_mode, 'strict');
    assert.ok(metadata.workflow.completed_at);
    assert.deepEqual(
      metadata.phases.map((p: { id: string; status: string; deliverables: number }) => [
        p.id,
        p.status,
        p.deliverables,
      ]),
      [
        ['scan', 'completed', 1],
        ['write', 'completed', 1],
      ],
    );
    const { input_tokens, output_tokens, estimated_credits, spend, ...counts } = metadata.totals;
    assert.deepEqual(counts, {
      phases_completed: 2,
      phases_skipped: 0,
      subagents_spawned: 2,
      deliverables_created: 2,
      checkpoints_hit: 0,
      audit_errors: 0,
      model_requests: 2,
    });
    // Each agent's request is in the ledger, per phase; the totals are its sums (the test model has no price).
    assert.deepEqual(
      metadata.spending.map((l: { who: string; step: string; requests: number }) => [l.who, l.step, l.requests]),
      [
        ['reviewer', 'phase scan', 1],
        ['writer', 'phase write', 1],
      ],
    );
    const sum = (key: 'inputTokens' | 'outputTokens') =>
      metadata.spending.reduce((total: number, l: Record<string, number>) => total + l[key]!, 0);
    assert.ok(input_tokens > 0 && output_tokens > 0);
    assert.deepEqual([input_tokens, output_tokens, estimated_credits], [sum('inputTokens'), sum('outputTokens'), 0]);
    assert.match(spend, /^2 requests · .* tokens .* · price unknown$/);
    assert.deepEqual(outcome.state.spending, metadata.spending);
  });

  it("a subagent's config.model picks its model; the others use the run's", async () => {
    const sonnet = echoModel();
    const asked: string[] = [];
    const { outcome } = await run(
      workflow([
        phase('scan', {
          mode: 'strict',
          behavior: 'sequential',
          subagents: [
            { type: 'writer', config: { model: 'sonnet' } },
            { type: 'reviewer', config: {} },
          ],
        }),
      ]),
      {
        modelFor: async name => (asked.push(String(name)), sonnet),
      },
    );
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(asked, ['sonnet']);
    assert.equal(sonnet.callCount, 1, 'only the writer ran on it');
  });

  it('saves the state after every phase', async () => {
    const { saves } = await run(
      workflow([phase('a', strict('writer')), phase('b', strict('writer')), phase('c', strict('writer'))]),
    );
    const completedAt = saves.map(save => save.context.phases.completed.length);
    assert.deepEqual(completedAt.slice(0, 3), [1, 2, 3]);
  });
});

describe('workflow engine: checkpoints', () => {
  const twoPhases = () =>
    workflow([
      phase('scan', strict('reviewer'), { checkpoint: approval }),
      phase('write', strict('writer')),
      phase('polish', strict('writer')),
    ]);

  it('pauses at an approval checkpoint with its options, and the paused state survives JSON', async () => {
    const { outcome } = await run(twoPhases());
    assert.equal(outcome.status, 'paused');
    if (outcome.status !== 'paused') return;
    assert.deepEqual(
      outcome.checkpoint.options.map(o => o.label),
      ['Continue', 'Continue with feedback', 'Redo Scan', 'Skip Write', 'Abort'],
    );
    assert.equal(outcome.state.nextPhase, 'write');
    assert.deepEqual(JSON.parse(JSON.stringify(outcome.state)).pendingCheckpoint, outcome.state.pendingCheckpoint);
  });

  it('feedback typed at a checkpoint is recorded and reaches the next phase', async () => {
    const first = await run(twoPhases());
    const model = echoModel();
    const resumed = await run(twoPhases(), {
      model,
      resume: {
        state: JSON.parse(JSON.stringify(first.outcome.state)),
        decision: { option: 1, feedback: 'Focus on error handling.' },
      },
      outputs: first.outputs,
    });
    assert.equal(resumed.outcome.status, 'completed');
    const record = resumed.outcome.state.context.checkpoints[0];
    assert.equal(record?.decision, 'continue');
    assert.equal(record?.feedback, 'Focus on error handling.');
    assert.match(JSON.stringify(model.requests[0]?.messages), /<feedback>\\nFocus on error handling.\\n<\/feedback>/);
    assert.doesNotMatch(
      JSON.stringify(model.requests[1]?.messages),
      /Focus on error handling/,
      'only the next phase gets it',
    );
  });

  it('metadata.json records each checkpoint decision: phase, decision, skipped phases, typed feedback and time', async () => {
    const first = await run(twoPhases());
    const failing = downModel();
    // The next phase fails: the file already says what was decided and typed.
    const failed = await run(twoPhases(), {
      model: failing,
      resume: { state: first.outcome.state, decision: { option: 1, feedback: 'Focus on error handling.' } },
      outputs: first.outputs,
    });
    assert.equal(failed.outcome.status, 'failed');
    const metadata = JSON.parse(failed.outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}');
    assert.deepEqual(metadata.checkpoints, [
      {
        phase: 'scan',
        decision: 'continue',
        label: 'Continue with feedback',
        skipped: [],
        feedback: 'Focus on error handling.',
        timestamp: failed.outcome.state.context.checkpoints[0]?.timestamp,
      },
    ]);
    assert.ok(metadata.checkpoints[0].timestamp);
    assert.equal(metadata.totals.checkpoints_hit, 1);
    const skipped = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 3 } },
      outputs: first.outputs,
    });
    const after = JSON.parse(skipped.outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}');
    assert.deepEqual(
      after.checkpoints.map((c: { decision: string; skipped: string[]; feedback: string | null }) => [
        c.decision,
        c.skipped,
        c.feedback,
      ]),
      [['skip_phases', ['write'], null]],
    );
    assert.deepEqual(after.skip_phases, ['write']);
  });

  it('feedback survives a failure of the phase it is for: the resumed phase still gets it', async () => {
    const first = await run(twoPhases());
    const failing = downModel();
    const failed = await run(twoPhases(), {
      model: failing,
      resume: { state: first.outcome.state, decision: { option: 1, feedback: 'Keep it short.' } },
      outputs: first.outputs,
    });
    assert.equal(failed.outcome.status, 'failed');
    const model = echoModel();
    const resumed = await run(twoPhases(), { model, resume: { state: failed.outcome.state }, outputs: first.outputs });
    assert.equal(resumed.outcome.status, 'completed');
    assert.match(JSON.stringify(model.requests[0]?.messages), /Keep it short\./);
    assert.equal(resumed.outcome.state.feedback, undefined, 'used up once the phase is done');
  });

  it('repeat_phase runs the phase again and counts its iterations', async () => {
    const first = await run(twoPhases());
    const redone = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 2 } },
      outputs: first.outputs,
    });
    assert.equal(redone.outcome.status, 'paused', 'at the phase’s checkpoint again');
    const resumed = await run(twoPhases(), {
      resume: { state: redone.outcome.state, decision: { option: 0 } },
      outputs: first.outputs,
    });
    assert.equal(resumed.outcome.status, 'completed');
    assert.equal(resumed.outcome.state.context.phases.iteration_counts['scan'], 2);
    assert.deepEqual(
      resumed.outcome.state.context.checkpoints.map(c => c.decision),
      ['repeat_phase', 'continue'],
    );
  });

  it('a repeat at a checkpoint past maxPhasePasses (the one bound on a phase running again) is refused, and the checkpoint stays open', async () => {
    const limits = { maxPhasePasses: 2 };
    const first = await run(twoPhases(), { limits });
    const redone = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 2 } },
      outputs: first.outputs,
      limits,
    });
    const refused = await run(twoPhases(), {
      resume: { state: redone.outcome.state, decision: { option: 2 } },
      outputs: first.outputs,
      limits,
    });
    assert.equal(refused.outcome.status, 'failed');
    assert.equal(
      refused.outcome.status === 'failed' ? refused.outcome.message : '',
      'The phase `scan` already ran 2 times in this run, the most one phase may: pick another option at its checkpoint.',
    );
    assert.equal(refused.outcome.state.context.phases.iteration_counts['scan'], 2);
    assert.equal(refused.outcome.state.pendingCheckpoint?.phase, 'scan', 'the checkpoint is still open');
    const resumed = await run(twoPhases(), {
      resume: { state: refused.outcome.state, decision: { option: 0 } },
      outputs: refused.outputs,
      limits,
    });
    assert.equal(resumed.outcome.status, 'completed');
  });

  it('Try again past maxPhasePasses stops the run before the phase starts, saying so', async () => {
    const failing: AgentType = {
      type: 'flaky',
      run: async () => {
        throw new ActionableError('The flaky agent failed.');
      },
    };
    const limits = { maxPhasePasses: 2 };
    const definition = workflow([phase('scan', strict('flaky'))]);
    let outcome = (await run(definition, { extraTypes: [failing], limits })).outcome;
    outcome = (await run(definition, { extraTypes: [failing], limits, resume: { state: outcome.state } })).outcome;
    assert.equal(outcome.status === 'failed' ? outcome.message : '', 'The flaky agent failed.');
    outcome = (await run(definition, { extraTypes: [failing], limits, resume: { state: outcome.state } })).outcome;
    assert.equal(
      outcome.status === 'failed' ? outcome.message : '',
      'The phase `scan` already ran 2 times in this run, the most one phase may; start a new run to try it again.',
    );
  });

  it('skip_phases skips the named phase; the metadata counts it as skipped', async () => {
    const first = await run(twoPhases());
    const resumed = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 3 } },
      outputs: first.outputs,
    });
    assert.equal(resumed.outcome.status, 'completed');
    const { context } = resumed.outcome.state;
    assert.deepEqual(context.skip_phases, ['write']);
    assert.deepEqual(context.phases.completed, ['scan', 'polish']);
    assert.deepEqual(context.checkpoints[0]?.skipped, ['write']);
    const metadata = JSON.parse(resumed.outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}');
    assert.equal(metadata.totals.phases_skipped, 1);
    assert.equal(metadata.phases[1].status, 'skipped');
  });

  it('abort ends the run at the checkpoint with a sentence', async () => {
    const first = await run(twoPhases());
    const resumed = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 4 } },
      outputs: first.outputs,
    });
    assert.equal(resumed.outcome.status, 'aborted');
    assert.match(resumed.outcome.status === 'aborted' ? resumed.outcome.message : '', /Stopped at Scan/);
  });

  it('a decision for an option the checkpoint does not have is refused, the checkpoint kept', async () => {
    const first = await run(twoPhases());
    const resumed = await run(twoPhases(), {
      resume: { state: first.outcome.state, decision: { option: 9 } },
      outputs: first.outputs,
    });
    assert.equal(resumed.outcome.status, 'failed');
    assert.match(
      resumed.outcome.status === 'failed' ? resumed.outcome.message : '',
      /has 5 options; option 10 does not exist/,
    );
  });

  it('a custom checkpoint shows its templated prompt and files', async () => {
    const definition = workflow([
      phase('scan', strict('reviewer'), {
        checkpoint: {
          kind: 'custom',
          prompt: 'Review {{phase_id}} in {{output_dir}}?',
          showFiles: ['{{output_dir}}/scan/reviewer.md'],
          options: [{ label: 'Go', withFeedback: false, onSelect: { action: 'continue' } }],
        },
      }),
    ]);
    const { outcome } = await run(definition);
    assert.equal(outcome.status, 'paused');
    if (outcome.status !== 'paused') return;
    assert.equal(outcome.checkpoint.prompt, `Review scan in ${FOLDER}?`);
    assert.deepEqual(outcome.checkpoint.files, [`${FOLDER}/scan/reviewer.md`]);
  });
});

describe('workflow engine: route-backs, skills, finalization, failures', () => {
  it("an agent's route-back reruns the earlier phase with its rationale as feedback, while its phases have passes left; then the engine refuses it", async () => {
    let calls = 0;
    const gate: AgentType = {
      type: 'gate',
      run: async () => {
        calls += 1;
        return {
          summary: 'checked',
          files: [],
          routeBack: { toType: 'reviewer', rationale: 'Scan missed the config.' },
        };
      },
    };
    const model = echoModel();
    const { outcome, events } = await run(
      workflow([phase('scan', strict('reviewer')), phase('gate', strict('gate'))]),
      { extraTypes: [gate], model, limits: { maxPhasePasses: 2, maxRouteBacks: 5 } },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(calls, 2, 'the gate ran again after the rerun, and its second route-back was refused');
    assert.equal(outcome.state.routeBacks, 1);
    assert.equal(outcome.state.context.phases.iteration_counts['scan'], 2);
    assert.match(JSON.stringify(model.requests[1]?.messages), /Scan missed the config/);
    assert.ok(events.some(event => event.kind === 'route-back' && event.to === 'scan'));
    assert.deepEqual(
      events.filter(event => event.kind === 'route-back-refused'),
      [
        {
          kind: 'route-back-refused',
          from: 'gate',
          to: 'scan',
          reason: 'phase `scan` already ran 2 times in this run, the most one phase may',
        },
      ],
    );
    assert.equal(outcome.state.context.phases.iteration_counts['gate'], 2, 'the run went on past the refusal');
  });

  it('a second route-back in a run is refused at REPETITION_BOUNDS.routeBacks (1), though the phase has passes left', async () => {
    const gate: AgentType = {
      type: 'gate',
      run: async () => ({ summary: 'checked', files: [], routeBack: { toType: 'reviewer', rationale: 'Again.' } }),
    };
    const { outcome, events } = await run(
      workflow([phase('scan', strict('reviewer')), phase('gate', strict('gate'))]),
      { extraTypes: [gate], model: echoModel() },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.routeBacks, REPETITION_BOUNDS.routeBacks);
    assert.equal(outcome.state.context.phases.iteration_counts['scan'], 2);
    assert.deepEqual(
      events.filter(event => event.kind === 'route-back-refused'),
      [
        {
          kind: 'route-back-refused',
          from: 'gate',
          to: 'scan',
          reason: 'the run already went back 1 time, the most one run may (1)',
        },
      ],
    );
  });

  it('a route-back to a type no phase runs is refused with the reason, and the run goes on', async () => {
    const gate: AgentType = {
      type: 'gate',
      run: async () => ({ summary: 'checked', files: [], routeBack: { toType: 'auditor', rationale: 'Audit it.' } }),
    };
    const { outcome, events } = await run(
      workflow([phase('scan', strict('reviewer')), phase('gate', strict('gate'))]),
      {
        extraTypes: [gate],
        model: echoModel(),
      },
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.routeBacks, 0);
    assert.deepEqual(
      events.filter(event => event.kind === 'route-back-refused'),
      [{ kind: 'route-back-refused', from: 'gate', to: 'auditor', reason: 'no phase runs `auditor`' }],
    );
  });

  it('runs skills: an agent type by name, a read-only tool with templated args, and skips one whose condition is false', async () => {
    const invoked: string[][] = [];
    const tools: ReadOnlyTools = {
      names: () => ['lookup'],
      invoke: async (_name, args) => (invoked.push([...args]), 'tool says hi'),
    };
    const definition = workflow([
      phase('scan', strict('reviewer'), {
        skills: [
          { name: 'lookup', args: ['--out={{output_dir}}/x.md', '--phase={{phase_id}}'] },
          { name: 'writer', args: [] },
        ],
      }),
    ]);
    const { outcome, outputs } = await run(definition, { tools });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(invoked, [[`--out=${FOLDER}/x.md`, '--phase=scan']]);
    assert.equal(outputs.files.get(`${FOLDER}/skills/lookup.md`), 'tool says hi');
    assert.equal(outcome.state.context.subagents_spawned, 2, 'the writer skill spawned an agent');
  });

  it('an unknown skill stops the run naming the phase and the known skills', async () => {
    const { outcome } = await run(
      workflow([phase('scan', strict('reviewer'), { skills: [{ name: 'nope', args: [] }] })]),
    );
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /Phase `scan` invokes the skill `nope`.*Known skills: code-scout/,
    );
  });

  it('renders the finalization template from the workspace into the run folder', async () => {
    const definition = workflow([phase('scan', strict('reviewer'), { checkpoint: approval })], {
      finalization: { template: 'docs/template.md', output: 'final-plan.md' },
    });
    const first = await run(definition);
    const done = await run(definition, {
      resume: { state: first.outcome.state, decision: { option: 1, feedback: 'Ship it.' } },
      outputs: first.outputs,
    });
    assert.equal(done.outcome.status, 'completed');
    const document = done.outputs.files.get(`${FOLDER}/final-plan.md`) ?? '';
    assert.match(document, /^# review\n\nGoal: Review the app module\./);
    assert.match(document, /- \[scan\/reviewer\.md\]\(scan\/reviewer\.md\) \(scan, reviewer\)/);
    assert.match(document, /# Report 1/, 'include: inlines the deliverable');
    assert.match(document, /- scan: Ship it\./);
    assert.equal(done.outcome.state.finalPlan, `${FOLDER}/final-plan.md`);
    assert.equal(
      JSON.parse(done.outputs.files.get(`${FOLDER}/metadata.json`) ?? '{}').final_plan,
      `${FOLDER}/final-plan.md`,
    );
  });

  it('a missing finalization template is a clear failure', async () => {
    const { outcome } = await run(
      workflow([phase('scan', strict('reviewer'))], { finalization: { template: 'docs/none.md', output: 'final.md' } }),
    );
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /finalization template `docs\/none.md` does not exist/,
    );
  });

  it('a model failure stops the run with its state; resuming does not redo completed phases', async () => {
    const failing = new ScriptedModel(
      (_r, index) =>
        index === 1 ? { kind: 'error', error: new LanguageModelFailure('notFound', 'model down') } : `# Doc ${index}`,
      { supportsToolCalling: false },
    );
    const definition = workflow([phase('a', strict('writer')), phase('b', strict('writer'))]);
    const first = await run(definition, { model: failing });
    assert.equal(first.outcome.status, 'failed');
    assert.deepEqual(first.outcome.state.context.phases.completed, ['a']);
    assert.equal(first.outcome.state.phaseTallies['b']?.status, 'failed');
    const model = echoModel();
    const resumed = await run(definition, { model, resume: { state: first.outcome.state }, outputs: first.outputs });
    assert.equal(resumed.outcome.status, 'completed');
    assert.equal(model.callCount, 1, 'only phase b ran');
    assert.equal(runSpent(resumed.outcome.state).requests, 3, 'requests counted over both calls, by the ledger');
  });

  it('Stop cancels the run; the state says where to go on', async () => {
    const scope = new CancellationScope(neverCancelled);
    const model = new ScriptedModel(
      () => {
        scope.cancel();
        return '# never used';
      },
      { supportsToolCalling: false },
    );
    const { outcome } = await run(workflow([phase('a', strict('writer'))]), { model }, scope);
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.state.nextPhase, 'a');
    assert.equal(outcome.state.phaseTallies['a']?.status, 'pending');
  });

  it('the run folder cannot be left through an output_path', async () => {
    const outputs = new InMemoryRunOutputs(FOLDER);
    const { outcome } = await run(
      workflow([
        phase('a', {
          mode: 'strict',
          behavior: 'parallel',
          subagents: [{ type: 'writer', config: { output_path: '../../evil.md' } }],
        }),
      ]),
      { outputs },
    );
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /Refused to write `\.\.\/\.\.\/evil\.md`: it leaves the run folder/,
    );
    assert.equal(outputs.files.size, 1, 'only metadata.json');
  });
});

describe('workflow engine: every phase is checked against the run credit limit before it starts', () => {
  // $1 / $4 per million tokens: one request of 6,000 + 1,000 tokens is about 1 AI credit.
  const prices = new PriceBook({ 'test/scripted': { input: 1, output: 4 } });
  const each = { input: 6_000, output: 1_000 };
  // Two phases that run one after the other without a checkpoint between.
  const twoPhases = workflow([phase('scan', strict('reviewer')), phase('review', strict('writer'))]);
  const phaseFloor = {
    each,
    smallest: (p: PhaseDefinition) => ({ what: `the ‘${p.name}’ phase`, fewestRequests: p.id === 'review' ? 30 : 1 }),
  };

  it('a second phase that does not fit is not started: the first ran, nothing is spent on the second, and the run resumes once the limit is raised', async () => {
    const model = echoModel();
    const { outcome, events, saves } = await run(twoPhases, {
      model,
      spending: { limits: { maxCredits: 12 }, prices, phaseFloor },
    });
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.status === 'failed' && outcome.error instanceof LanguageModelFailure);
    assert.equal(outcome.error.kind, 'budgetSpent');
    assert.match(
      outcome.message,
      /^The ‘Review’ phase needs about 30 AI credits at least \(30 requests of ≈7\.0k tokens at this model's price\); this run's limit is 12 AI credits, about [\d.]+ of them left\. Nothing was spent on it\. Raise `council\.budget\.runMaxCredits` in the settings or pick a cheaper model, then press Try again to continue where it stopped\.$/,
    );
    // The first phase ran and spent; the second was never started.
    assert.equal(model.requests.length, 1);
    assert.deepEqual(outcome.state.context.phases.completed, ['scan']);
    assert.equal(outcome.state.phaseTallies.review?.status, 'pending');
    assert.ok(!events.some(e => e.kind === 'phase-started' && e.phase === 'review'));
    assert.ok(outcome.state.spending.every(line => line.step !== 'phase review'));
    assert.ok(runSpent(outcome.state).requests === 1);
    // Saved where it stopped, resumable: with the limit raised, Try again runs only the second phase.
    assert.deepEqual(saves.at(-1), outcome.state);
    assert.equal(outcome.state.nextPhase, 'review');
    const again = echoModel();
    const resumed = await run(twoPhases, {
      model: again,
      resume: { state: outcome.state },
      spending: { limits: { maxCredits: 100 }, prices, phaseFloor },
    });
    assert.equal(resumed.outcome.status, 'completed');
    assert.equal(again.requests.length, 1, 'only the second phase ran');
    assert.deepEqual(resumed.outcome.state.context.phases.completed, ['scan', 'review']);
  });

  it("a new run's first phase is checked too: nothing is spent at all", async () => {
    const model = echoModel();
    const { outcome, events } = await run(twoPhases, {
      model,
      spending: { limits: { maxCredits: 0.5 }, prices, phaseFloor },
    });
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /^The ‘Scan’ phase needs about 1\.0 AI credits at least .*this run's limit is 0\.5 AI credits\. Nothing was spent on it\./,
    );
    assert.equal(model.requests.length, 0);
    assert.ok(!events.some(e => e.kind === 'phase-started'));
    assert.equal(outcome.state.nextPhase, 'scan');
  });

  it('a phase after a checkpoint is checked when the run resumes past it', async () => {
    const paused = workflow([
      phase('scan', strict('reviewer'), { checkpoint: approval }),
      phase('review', strict('writer')),
    ]);
    const first = await run(paused, { spending: { limits: { maxCredits: 12 }, prices, phaseFloor } });
    assert.equal(first.outcome.status, 'paused');
    const model = echoModel();
    const resumed = await run(paused, {
      model,
      resume: { state: first.outcome.state, decision: { option: 1 } },
      spending: { limits: { maxCredits: 12 }, prices, phaseFloor },
    });
    assert.equal(resumed.outcome.status, 'failed');
    assert.equal(model.requests.length, 0);
    assert.equal(resumed.outcome.state.nextPhase, 'review');
    assert.equal(
      resumed.outcome.state.pendingCheckpoint,
      undefined,
      'the decision is kept: Try again goes on at the phase',
    );
  });

  it('without a price, a credit limit or a countable floor, phases run as before', async () => {
    const unpriced = await run(twoPhases, {
      spending: { limits: { maxCredits: 12 }, prices: new PriceBook(), phaseFloor },
    });
    assert.equal(unpriced.outcome.status, 'completed');
    const unknown = await run(twoPhases, {
      spending: { limits: { maxCredits: 12 }, prices, phaseFloor: { each, smallest: () => undefined } },
    });
    assert.equal(unknown.outcome.status, 'completed');
  });
});
