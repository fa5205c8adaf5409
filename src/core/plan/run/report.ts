import { ledgerMarkdown } from '../../llm/spending/spendText';
import type { WorkflowMetadata } from '../../workflow/engine/workflowMetadata';
import type { WorkflowRunState } from '../../workflow/engine/workflowRunState';
import { readBoard, type PipelineBoard } from '../pipelineBoard';
import type { DiscoveryStageRecord, PlanningStageRecord, TicketStageRecord } from '../stages/stageRecords';
import { mermaidOfDiagram, mermaidOfTickets } from './mermaid';
import { proposedChangeMarkdown } from './proposedChangeMarkdown';

/** A Markdown file to write under the workspace (writing is the VS Code layer's job). */
export interface ReportFile {
  readonly path: string;
  readonly content: string;
}

/** Folder of a run's files: `.council/runs/<run-id>`. */
export function runFolder(runId: string): string {
  return `.council/runs/${runId}`;
}

function codeMapFile(goal: string, discovery: DiscoveryStageRecord): string {
  const map = discovery.result.unifiedCodeMap;
  return [
    `# Code map`,
    '',
    `Goal: ${goal}`,
    '',
    discovery.result.consolidatedOutput,
    '',
    `## ${map.unifiedDiagram.title}`,
    '',
    '```mermaid',
    mermaidOfDiagram(map.unifiedDiagram),
    '```',
    '',
    '## Modules',
    '',
    ...map.modules.map(
      m =>
        `- **${m.moduleName}** (\`${m.rootPath}\`): ${m.summary}${m.keyFiles.length ? ` Key files: ${m.keyFiles.map(f => `\`${f}\``).join(', ')}.` : ''}`,
    ),
    '',
    '## Key references',
    '',
    '| File | Lines | Relevance | Tags |',
    '| --- | --- | --- | --- |',
    ...map.deduplicatedReferences.map(
      r =>
        `| \`${r.filePath}\` | ${r.startLine}-${r.endLine} | ${r.relevanceScore.toFixed(2)} | ${r.tags.join(', ')} |`,
    ),
    '',
  ].join('\n');
}

function recommendationsFile(discovery: DiscoveryStageRecord): string {
  return [
    '# Recommendations',
    '',
    ...discovery.result.recommendations.flatMap(r => [
      `## ${r.recommendationId}: ${r.title} (${r.priority})`,
      '',
      r.description,
      ...(r.estimatedImpact ? ['', `Impact: ${r.estimatedImpact}`] : []),
      ...(r.relatedFilePaths.length ? ['', `Files: ${r.relatedFilePaths.map(p => `\`${p}\``).join(', ')}`] : []),
      '',
    ]),
  ].join('\n');
}

function ticketsFile(planning: PlanningStageRecord): string {
  const { finalizedTickets, dependencyGraph } = planning.result;
  return [
    '# Tickets',
    '',
    '```mermaid',
    mermaidOfTickets(finalizedTickets, dependencyGraph),
    '```',
    '',
    ...finalizedTickets.flatMap(t => [
      `## ${t.ticketId}: ${t.title} (priority ${t.priority}${t.effortEstimate ? `, ${t.effortEstimate}` : ''})`,
      '',
      t.description,
      '',
      `Depends on: ${t.dependencies.length ? t.dependencies.join(', ') : 'nothing'}`,
      '',
      '### Tasks',
      '',
      ...t.tasks.map(
        task =>
          `- [ ] ${task.description}${task.relatedFiles.length ? ` (${task.relatedFiles.map(f => `\`${f}\``).join(', ')})` : ''}`,
      ),
      '',
      '### Acceptance criteria',
      '',
      ...t.acceptanceCriteria.map(c => `- ${c}`),
      '',
    ]),
  ].join('\n');
}

function outcomeFiles(tickets: TicketStageRecord, folder: string): ReportFile[] {
  return tickets.agentResults.map(result => ({
    path: `${folder}/outcomes/${result.ticketId.replace(/[^\w.-]/g, '_')}.md`,
    content: [
      `# ${result.ticketId}: implementation proposal (${result.verificationStatus})`,
      '',
      'Nothing has been applied. Review the changes before applying them.',
      '',
      result.implementationSummary,
      '',
      '## Plan',
      '',
      ...result.implementationPlan.map((step, i) => `${i + 1}. ${step}`),
      '',
      '## Proposed changes',
      '',
      ...(result.proposedChanges.length
        ? result.proposedChanges.map(c => `${proposedChangeMarkdown(c)}\n`)
        : ['No file changes proposed.', '']),
      '## Test plan',
      '',
      ...result.testPlan.map(step => `- ${step}`),
      '',
    ].join('\n'),
  }));
}

/** Text that stays inside one Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** What the handoff audit (spec 003's checks on each accepted result) found, phase (stage) by phase. */
function auditSection(phases: WorkflowMetadata['phases']): string[] {
  const stages = phases.flatMap(({ id, audit }) => (audit ? [{ stage: id, ...audit }] : []));
  const checked = stages.reduce((sum, stage) => sum + stage.checked, 0);
  const found = stages.flatMap(({ stage, findings }) => findings.map(finding => ({ stage, ...finding })));
  if (found.length === 0) return ['## Handoff audit', '', `${checked} handoffs audited; nothing found.`, ''];
  return [
    '## Handoff audit',
    '',
    `${checked} handoffs audited; ${found.length} finding${found.length === 1 ? '' : 's'} (the run went on; check these before you rely on the result):`,
    '',
    '| Stage | Agent | Code | Severity | Where | What | Fix |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...found.map(
      f =>
        `| ${f.stage} | ${f.agent} | ${f.code} | ${f.severity} | \`${f.where.replace(/`/g, "'")}\` | ${cell(f.message)} | ${cell(f.remediation ?? '')} |`,
    ),
    '',
  ];
}

/** `run.md`: the run's metadata (what `metadata.json` says, from the engine's one builder) and what the stages made. */
function runFile(state: WorkflowRunState, board: PipelineBoard, meta: WorkflowMetadata): string {
  const phasesWith = (status: string) => meta.phases.filter(p => p.status === status).map(p => p.id);
  const skipped = phasesWith('skipped');
  const agents = Object.values(board.stages).reduce((total, record) => total + record.agentsSpawned, 0);
  const proposals = board.stages.tickets?.agentResults ?? [];
  const changes = proposals.flatMap(result => result.proposedChanges);
  const files = new Set(changes.map(change => change.path)).size;
  return [
    `# Run ${meta.run_id}`,
    '',
    `Goal: ${board.goal}`,
    '',
    `Started ${meta.workflow.started_at}, last updated ${state.updatedAt}. Completed stages: ${phasesWith('completed').join(', ') || 'none'}${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}.`,
    '',
    // Agents the stages spawned (orchestrators and collectors not counted), in each completed stage's last pass.
    `Agents spawned: ${agents} · model requests: ${meta.totals.model_requests} · route-backs: ${state.routeBacks}`,
    '',
    '| Phase | Status | Passes | Model requests |',
    '| --- | --- | --- | --- |',
    ...meta.phases.map(p => `| ${p.id} | ${p.status} | ${p.iterations} | ${p.model_requests} |`),
    '',
    ...auditSection(meta.phases),
    `Deliverables: ${board.stages.discovery?.result.recommendations.length ?? 0} recommendations, ${board.stages.planning?.result.finalizedTickets.length ?? 0} tickets, ${proposals.length} proposals with ${changes.length} proposed changes to ${files} files.`,
    '',
    '## What it cost',
    '',
    `${meta.totals.spend} (estimated at Council's price table; GitHub's billing is authoritative).`,
    '',
    ledgerMarkdown(meta.spending),
    '',
  ].join('\n');
}

/**
 * The run's results as Markdown files under `.council/runs/<run-id>/` (pure): code map with a Mermaid diagram,
 * recommendations, tickets with their dependency graph, one outcome per ticket (plan and proposed changes), and run
 * metadata. Files for stages not yet completed are left out.
 */
export function pipelineReportFiles(state: WorkflowRunState, metadata: WorkflowMetadata): ReportFile[] {
  const folder = runFolder(state.runId);
  const board = readBoard(state.blackboard);
  const { discovery, planning, tickets } = board.stages;
  const file = (name: string, content: string): ReportFile => ({ path: `${folder}/${name}`, content });
  return [
    ...(discovery
      ? [
          file('code-map.md', codeMapFile(board.goal, discovery)),
          file('recommendations.md', recommendationsFile(discovery)),
        ]
      : []),
    ...(planning ? [file('tickets.md', ticketsFile(planning))] : []),
    ...(tickets ? outcomeFiles(tickets, folder) : []),
    file('run.md', runFile(state, board, metadata)),
  ];
}
