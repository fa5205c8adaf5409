import { runSpent } from '../../../../../src/core/workflow/engine/workflowRunState';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import assert from 'node:assert/strict';
import { pipelineReportFiles } from '../../../../../src/core/plan/run/report';
import { workflowMetadataOf } from '../../../../../src/core/workflow/engine/workflowMetadata';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';
import { proposedChangeMarkdown } from '../../../../../src/core/plan/run/proposedChangeMarkdown';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { pipelineModel } from '../../../../support/pipelineScript';
import { runFixture } from './harness';

describe('run report (Markdown)', () => {
  it('writes code map, recommendations, tickets, one outcome per ticket and run metadata under .council/runs/<run-id>/', async () => {
    const { outcome } = await runFixture(pipelineModel({}, { family: 'scripted' }), {
      spending: { limits: {}, prices: new PriceBook({ 'test/scripted': { input: 3, output: 15 } }) },
    });
    const metadata = workflowMetadataOf(builtInWorkflow('plan'), outcome.state, outcome.state.updatedAt);
    const files = pipelineReportFiles(outcome.state, metadata);
    const folder = `.council/runs/${outcome.state.runId}`;
    assert.deepEqual(
      files.map(f => f.path),
      [
        `${folder}/code-map.md`,
        `${folder}/recommendations.md`,
        `${folder}/tickets.md`,
        `${folder}/outcomes/T-1.md`,
        `${folder}/outcomes/T-2.md`,
        `${folder}/run.md`,
      ],
    );
    const byName = (name: string) => files.find(f => f.path.endsWith(name))?.content ?? '';
    assert.match(byName('code-map.md'), /```mermaid\nflowchart LR\n {2}n_app\["app \(src\/app\.ts\)"\]/);
    assert.match(byName('code-map.md'), /n_app -->\|"calls"\| n_math/);
    assert.match(byName('tickets.md'), /```mermaid\nflowchart TD[\s\S]*n_T_1 -->\|"blocks"\| n_T_2/);
    assert.match(byName('tickets.md'), /### Acceptance criteria\n\n- Tests pass\./);
    assert.match(
      byName('T-1.md'),
      /```diff\n--- a\/src\/util\/math\.ts\n\+\+\+ b\/src\/util\/math\.ts\n@@ -2,1 \+2,1 @@/,
    );
    assert.match(byName('T-1.md'), /Nothing has been applied/);
    assert.match(byName('run.md'), /\| discovery \| completed \| 1 \| \d+ \|/);
    // What it cost: the run's totals and its ledger, per stage agent and phase.
    assert.match(
      byName('run.md'),
      /## What it cost\n\n\d+ requests · .* tokens \(.* in, .* out\) · about [\d.]+ AI credits/,
    );
    assert.match(byName('run.md'), /\| discovery-stage \| phase discovery \| Scripted model \| \d+ \|/);
    // The figures are metadata.json's (the engine's one builder), and the stages' own deliverables.
    const agents = Object.values(readBoard(outcome.state.blackboard).stages).reduce(
      (total, record) => total + record.agentsSpawned,
      0,
    );
    assert.ok(agents >= 7);
    assert.equal(
      metadata.totals.model_requests,
      runSpent(outcome.state).requests,
      'every request counted once, by the ledger',
    );
    assert.match(
      byName('run.md'),
      new RegExp(`Agents spawned: ${agents} · model requests: ${metadata.totals.model_requests} · route-backs: 0`),
    );
    assert.match(
      byName('run.md'),
      /Deliverables: \d+ recommendations, 2 tickets, 2 proposals with 4 proposed changes to \d+ files\./,
    );
    // Every handoff of every pass was audited (each agent's and the collector's), and the audit found nothing; the
    // report reads the audit the engine kept with each phase.
    const { stages } = readBoard(outcome.state.blackboard);
    const handoffs = (stage: 'discovery' | 'planning' | 'tickets') => (stages[stage]?.agentsSpawned ?? 0) + 1;
    assert.deepEqual(
      metadata.phases.flatMap(({ id, audit }) => (audit ? [[id, audit.checked, audit.findings.length]] : [])),
      (['discovery', 'planning', 'tickets'] as const).map(stage => [stage, handoffs(stage), 0]),
    );
    const audited = agents + 3;
    assert.match(byName('run.md'), new RegExp(`## Handoff audit\n\n${audited} handoffs audited; nothing found\.`));
  });

  it('lists what the handoff audit found, stage by stage, with the agent, the code, where and the fix', async () => {
    const { outcome } = await runFixture(pipelineModel());
    const metadata = workflowMetadataOf(builtInWorkflow('plan'), outcome.state, outcome.state.updatedAt);
    const discovery = metadata.phases.find(phase => phase.id === 'discovery')?.audit;
    assert.ok(discovery);
    const finding = {
      code: 'REF-001',
      severity: 'warning' as const,
      message: 'Unknown file: src/gone.ts | really',
      where: '$.payload.fileReferences[0].filePath',
      remediation: 'Verify the path',
      agent: 'discovery-agent-1',
    };
    const found = {
      ...metadata,
      phases: metadata.phases.map(phase =>
        phase.id === 'discovery' ? { ...phase, audit: { ...discovery, findings: [finding] } } : phase,
      ),
    };
    const run = pipelineReportFiles(outcome.state, found).find(f => f.path.endsWith('run.md'))?.content ?? '';
    assert.match(run, /handoffs audited; 1 finding \(the run went on; check these before you rely on the result\)/);
    assert.match(
      run,
      /\| discovery \| discovery-agent-1 \| REF-001 \| warning \| `\$\.payload\.fileReferences\[0\]\.filePath` \| Unknown file: src\/gone\.ts \\\| really \| Verify the path \|/,
    );
  });

  it('leaves out files of stages not completed, and fences content that contains backticks', () => {
    const md = proposedChangeMarkdown({ kind: 'create', path: 'a.md', content: '```js\nx\n```', rationale: 'r' });
    assert.match(md, /^````md\n```js/m);
  });
});
