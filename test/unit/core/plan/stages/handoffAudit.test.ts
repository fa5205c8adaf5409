import assert from 'node:assert/strict';
import { neverCancelled } from '../../../../../src/core/llm/languageModel';
import { discoveryReportRequest } from '../../../../../src/core/plan/drafts/discoveryReportRequest';
import type { DiscoveryReport } from '../../../../../src/core/plan/schemas/discovery';
import { SCHEMA_VERSION } from '../../../../../src/core/plan/schemas/version';
import { ContextIdIssuer } from '../../../../../src/core/plan/stages/contextIdIssuer';
import type { PipelineProgressEvent } from '../../../../../src/core/plan/stages/progressEvents';
import {
  auditDiscoveryReport,
  auditPlanningCuration,
  auditTicketCuration,
  auditTicketResult,
  HandoffAuditLog,
  type KnownIds,
} from '../../../../../src/core/plan/stages/handoffAudit';
import { idOf, planningCollectorResult, ticketAgentResult, ticketCollectorResult } from '../schemas/fixtures';
import type { StageEnvironment } from '../../../../../src/core/plan/stages/stageEnvironment';
import { handOffModelDraft } from '../../../../../src/core/plan/stages/stageHandoff';
import { DEFAULT_PIPELINE_OPTIONS } from '../../../../../src/core/plan/stages/pipelineOptions';
import { counterIds, discoveryReportDraft, pipelineModel, steppingClock } from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';

/**
 * One discovery report handed to its collector. The draft admits `src/app.ts`; `auditedFiles` are the files the
 * audit knows, and `knownContexts` the context ids it knows (the report's upstream id among them, or not).
 */
async function handOffReport(auditedFiles: readonly string[], upstreamKnown: boolean) {
  const model = pipelineModel({ discovery_report: valueReply(discoveryReportDraft()) });
  const clock = steppingClock();
  const contextIds = new ContextIdIssuer(RUN_ID, clock, 1);
  const upstream = contextIds.issue('discovery-orchestrator');
  const audit = new HandoffAuditLog();
  const events: PipelineProgressEvent[] = [];
  const env = {
    model,
    clock,
    ids: counterIds(),
    token: neverCancelled,
    contextIds,
    knownContextIds: new Set(upstreamKnown ? [upstream] : []),
    index: { visiblePaths: new Set(auditedFiles) },
    audit,
    options: DEFAULT_PIPELINE_OPTIONS,
    onProgress: (event: PipelineProgressEvent) => events.push(event),
  } as unknown as StageEnvironment;
  const handoff = await handOffModelDraft(
    env,
    { stage: 'discovery' },
    { name: 'discovery_report', description: 'A report.' },
    {
      source: { agentId: 'discovery-agent-1', agentType: 'discovery-agent' },
      draft: {
        ...discoveryReportRequest(new Set(['src/app.ts'])),
        messages: [{ role: 'user', content: 'Report on src.' }],
      },
      complete: (draft): DiscoveryReport => ({
        ...draft,
        schemaVersion: SCHEMA_VERSION,
        resultId: contextIds.issue('discovery-agent'),
        upstreamContextId: upstream,
      }),
      audit: auditDiscoveryReport,
    },
  );
  return { handoff, audit, events, requests: model.requests.length };
}

describe('the handoff audit: spec 003’s checks read an accepted result, they repair nothing', () => {
  it('a clean result is audited, finds nothing and costs one request', async () => {
    const { handoff, audit, events, requests } = await handOffReport(['src/app.ts'], true);
    assert.equal(requests, 1);
    assert.deepEqual(audit.audit, { checked: 1, findings: [] });
    assert.equal(handoff.fileReferences[0]?.filePath, 'src/app.ts');
    assert.ok(!events.some(event => event.kind === 'handoff-audited'));
  });

  it('what the audit finds is recorded with the handoff and the agent; the result is kept and nothing is asked again', async () => {
    // The file vanished from what the audit knows, and the upstream context id is not one the run issued.
    const { handoff, audit, events, requests } = await handOffReport(['src/other.ts'], false);
    assert.equal(requests, 1, 'no repair request: the audit is not a second repair loop');
    assert.equal(handoff.fileReferences[0]?.filePath, 'src/app.ts');
    assert.equal(audit.audit.checked, 1);
    assert.deepEqual(
      audit.audit.findings.map(finding => [finding.code, finding.severity, finding.agent, finding.where]),
      [
        ['REF-002', 'error', 'discovery-agent-1', '$.upstreamContextId'],
        ['REF-001', 'warning', 'discovery-agent-1', '$.fileReferences[0].filePath'],
      ],
    );
    const told = events.filter(event => event.kind === 'handoff-audited');
    assert.equal(told.length, 1, 'errors are told as progress');
    assert.deepEqual(
      told.flatMap(event => (event.kind === 'handoff-audited' ? event.findings.map(f => f.code) : [])),
      ['REF-002'],
    );
  });

  const everything: KnownIds = {
    files: new Set(['src/app/main.ts', 'src/app/old.ts']),
    contextIds: new Set([idOf('discovery-collector')]),
    ticketIds: new Set(['T-1']),
  };

  it('a ticket proposal: creating an existing file breaks its rule; what it changes, its ticket and context must exist', () => {
    assert.deepEqual(auditTicketResult(ticketAgentResult(), everything), []);
    const findings = auditTicketResult(ticketAgentResult(), {
      files: new Set(['src/app/main.ts', 'src/app/validate.ts']),
      contextIds: new Set(),
      ticketIds: new Set(['T-2']),
    });
    assert.deepEqual(
      findings.map(f => [f.code, f.severity, f.where]),
      [
        ['SEM-005', 'error', '$.proposedChanges[0].path'],
        ['REF-003', 'error', '$.ticketId'],
        ['REF-002', 'error', '$.discoveryResultId'],
        ['REF-001', 'warning', '$.proposedChanges[2].path'],
      ],
    );
    assert.match(findings[1]?.message ?? '', /^Unknown ticket id: T-1 \(did you mean "T-2"\?\)$/);
  });

  it('a curated ticket context is checked result by result; a kind the run does not track is not checked', () => {
    const context = ticketCollectorResult().ticketCuration;
    assert.deepEqual(auditTicketCuration(context, everything), []);
    const { ticketIds: _untracked, ...noTickets } = everything;
    assert.deepEqual(
      auditTicketCuration(context, { ...noTickets, files: new Set(['src/app/main.ts']) }).map(f => [f.code, f.where]),
      [['REF-001', '$.curation.ticketAgentResults[0].proposedChanges[2].path']],
    );
  });

  it('a planning curation: a dependency on a ticket it does not keep breaks its rule', () => {
    const context = planningCollectorResult().planningCuration;
    assert.deepEqual(auditPlanningCuration(context, everything), []);
    const dangling = {
      ...context,
      curation: {
        ...context.curation,
        dependencyGraph: [{ fromTicketId: 'T-1', toTicketId: 'T-9', dependencyType: 'blocks' as const }],
      },
    };
    assert.deepEqual(
      auditPlanningCuration(dangling, everything).map(f => [f.code, f.where, f.message]),
      [['SEM-005', '$.curation.dependencyGraph[0]', 'dependency names unknown ticket "T-9"']],
    );
  });
});
