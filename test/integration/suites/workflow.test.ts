import * as vscode from 'vscode';
import { TOOL } from '../../../src/core/council/toolSession';
import * as assert from '../assert';
import {
  councilExtension,
  fixture,
  newChat,
  readWorkspaceFile,
  sendChat,
  workspaceUri,
  writeWorkspaceFile,
} from '../harness';
import type { CouncilApi } from '../../../src/extension';
import {
  deepWorkFollowups,
  readDeepWorkMetadata,
  type DeepWorkResultMetadata,
} from '../../../src/vscode/deepWork/deepWorkResult';

/**
 * A user workflow from `.council/workflows/` in a real VS Code: an adaptive phase, a custom checkpoint whose option
 * takes feedback, a gap check that spawns an additional agent, a loose phase whose script thinks and writes, and a
 * finalization template. The model is scripted: every agent gets a short Markdown document.
 */
const WORKFLOW = `name: review-flow
description: Reviews a change and writes a plan.
execution_mode: adaptive
phases:
  - id: scan
    name: Scan
    description: Look at the code the goal touches.
    behavior: parallel
    subagents:
      always:
        - type: reviewer
      adaptive:
        script: |
          return context.feature.flags.includes('backend') ? [{ type: 'pattern-analyzer', config: { focus: 'api' } }] : [];
    gap_check:
      enabled: true
      max_iterations: 2
      script: |
        if (context.deliverables.some(d => d.subagent === 'test-planner')) return { status: 'complete' };
        return { status: 'incomplete', gaps: ['No test plan yet'], action: 'spawn_additional', additionalAgents: [{ type: 'test-planner' }] };
    checkpoint:
      condition: "context.subagents_spawned > 0"
      prompt: "Review the scan in {{output_dir}} before the plan is written?"
      show_files:
        - "{{output_dir}}/scan/reviewer.md"
      options:
        - label: Continue
          on_select: { action: continue }
        - label: Continue with notes
          with_feedback: true
          on_select: { action: continue }
        - label: Stop
          on_select: { action: abort }
  - id: write
    name: Write
    description: Write the plan.
    execution_mode: loose
    behavior: main-only
    main_agent:
      script: |
        const plan = await thinkHard('Write the plan. Reviewer notes: ' + feedback);
        await writeFile('plan.md', plan);
finalization:
  template: .council/workflows/review-template.md
  output: final-plan.md
`;

const TEMPLATE = '# {{workflow_name}}\n\nGoal: {{goal}}\n\n{{include:plan.md}}\n\n## Files\n\n{{deliverables}}\n';

function meta(result: vscode.ChatResult): DeepWorkResultMetadata {
  const metadata = readDeepWorkMetadata(result);
  assert.ok(metadata, `a /workflow result: ${JSON.stringify(result)}`);
  return metadata as DeepWorkResultMetadata;
}

describe('/workflow: YAML workflows in chat', function () {
  this.timeout(60_000);

  before(async () => {
    await writeWorkspaceFile('.council/workflows/review-flow.yaml', WORKFLOW);
    await writeWorkspaceFile('.council/workflows/review-template.md', TEMPLATE);
    await writeWorkspaceFile(
      '.council/workflows/broken.yaml',
      'name: broken\ndescription: x\nphases:\n  - id: a\n    name: A\n    description: a\n    execution_mode: loose\n    behavior: parallel\n    main_agent:\n      script: "return 1"\n',
    );
  });

  after(async () => {
    await vscode.workspace.fs.delete(workspaceUri('.council/workflows'), { recursive: true, useTrash: false });
  });

  beforeEach(async () => {
    await newChat();
  });

  it('`/workflow` alone lists the workflows without a model request', async () => {
    const api = await fixture();
    const result = await sendChat('@council /workflow');
    assert.deepEqual(meta(result), { workflow: 1 });
    assert.equal(result.errorDetails, undefined);
    assert.equal(api.requests().length, 0, 'listing costs no request');
  });

  it('runs a user workflow: adaptive agents, a gap check that spawns an agent, a checkpoint with feedback, a script and the finalization', async () => {
    const api = await fixture();
    api.setResponder(request => {
      const text = request.messages.map(message => message.text).join('\n');
      if (text.startsWith('Write the plan.')) return `# Plan\n\n${text}`;
      const role = /You are the ([\w-]+) subagent/.exec(text)?.[1] ?? 'agent';
      return `# ${role} report\n\nFindings.`;
    });
    const first = await sendChat('@council /workflow review-flow --flags backend Review the calculator');
    const paused = meta(first);
    assert.equal(paused.status, 'paused');
    const runId = paused.runId ?? '';
    assert.match(runId, /^run-[0-9a-f-]{36}$/, "a workflow run has its own ids, not /plan's wf-");
    assert.deepEqual(
      deepWorkFollowups(first)?.map(followup => followup.label),
      ['Continue', 'Continue with notes', 'Stop'],
    );

    const api2 = (await councilExtension()).exports as CouncilApi;
    const stored = api2.runs.load(runId);
    assert.ok(stored, 'the paused run is stored');
    const context = stored?.state.context;
    assert.deepEqual(
      context?.deliverables.map(d => d.subagent).sort(),
      ['pattern-analyzer', 'reviewer', 'test-planner'],
      "adaptive agent and the gap check's additional agent ran",
    );
    assert.deepEqual(
      context?.gap_checks.map(g => [g.iteration, g.status, g.action_taken, g.agents_spawned]),
      [
        [1, 'incomplete', 'spawn_additional', ['test-planner']],
        [2, 'complete', 'none', []],
      ],
    );
    assert.equal(
      stored?.state.pendingCheckpoint?.prompt,
      `Review the scan in .council/workflow-runs/${runId} before the plan is written?`,
    );

    const done = await sendChat(`@council /workflow decide ${runId} 2 Focus on error handling`);
    assert.equal(meta(done).status, 'completed');
    const thinking = api
      .requests()
      .find(request => request.messages.some(message => message.text.startsWith('Write the plan.')));
    assert.ok(
      thinking?.messages.some(message => message.text.includes('Reviewer notes: Focus on error handling')),
      'the feedback reached the next phase',
    );
    const final = await readWorkspaceFile(`.council/workflow-runs/${runId}/final-plan.md`);
    assert.match(final, /^# review-flow\n\nGoal: Review the calculator\n\n# Plan/);
    const metadata = JSON.parse(await readWorkspaceFile(`.council/workflow-runs/${runId}/metadata.json`)) as {
      totals: Record<string, number>;
      final_plan: string;
      feature: { flags: string[] };
    };
    assert.deepEqual(metadata.feature.flags, ['backend']);
    assert.equal(metadata.totals['phases_completed'], 2);
    assert.equal(metadata.totals['subagents_spawned'], 3);
    assert.equal(metadata.totals['checkpoints_hit'], 1);
    assert.equal(metadata.totals['model_requests'], api.requests().length);
    assert.equal(metadata.final_plan, `.council/workflow-runs/${runId}/final-plan.md`);
    const record = api2.runs.load(runId);
    assert.equal(record?.status, 'completed');
    assert.equal(record?.state.context.checkpoints[0]?.feedback, 'Focus on error handling');
  });

  it('through the council_workflow tool: runs to the checkpoint, offers its options as next calls, and decides with feedback', async () => {
    const api = await fixture();
    api.setResponder(request => {
      const text = request.messages.map(message => message.text).join('\n');
      if (text.startsWith('Write the plan.')) return `# Plan\n\n${text}`;
      return `# ${/You are the ([\w-]+) subagent/.exec(text)?.[1] ?? 'agent'} report\n\nFindings.`;
    });
    const invoke = async (input: object): Promise<string> => {
      const result = await vscode.lm.invokeTool(TOOL.workflow, { input, toolInvocationToken: undefined });
      return result.content.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    };
    const paused = await invoke({ workflow: 'review-flow', flags: ['backend'], goal: 'Review the calculator' });
    assert.match(
      paused,
      /Review the scan in \.council\/workflow-runs\/run-/,
      'the checkpoint prompt, as the chat shows it',
    );
    const runId = /"runId":"(run-[0-9a-f-]{36})"/.exec(paused)?.[1] ?? '';
    assert.ok(runId, `the next calls name the run: ${paused}`);
    for (const [label, option] of [
      ['Continue', 1],
      ['Continue with notes', 2],
      ['Stop', 3],
    ] as const)
      assert.ok(
        paused.includes(`- ${label}: \`council_workflow\` with {"runId":"${runId}","option":${option}}`),
        label,
      );
    const done = await invoke({ runId, option: 2, feedback: 'Focus on error handling' });
    assert.equal(((await councilExtension()).exports as CouncilApi).runs.load(runId)?.status, 'completed', done);
    assert.ok(
      api.requests().some(r => r.messages.some(m => m.text.includes('Reviewer notes: Focus on error handling'))),
      'the feedback reached the next phase',
    );
  });

  it('refuses an unknown workflow by name, listing the ones there are', async () => {
    const result = await sendChat('@council /workflow nope Do it');
    assert.match(
      result.errorDetails?.message ?? '',
      /There is no workflow `nope`\. Workflows here: .*`plan`.*`review-flow`/,
    );
    assert.match(result.errorDetails?.message ?? '', /\.council\/workflows\/broken\.yaml/);
  });
});
