import assert from 'node:assert/strict';
import { neverCancelled } from '../../../../../src/core/llm/languageModel';
import { discoveryReportRequest } from '../../../../../src/core/plan/drafts/discoveryReportRequest';
import { ticketAgentRequest } from '../../../../../src/core/plan/drafts/ticketAgentRequest';
import type { DiscoveryReport } from '../../../../../src/core/plan/schemas/discovery';
import type { TicketAgentResult } from '../../../../../src/core/plan/schemas/tickets';
import { SCHEMA_VERSION } from '../../../../../src/core/plan/schemas/version';
import { ContextIdIssuer } from '../../../../../src/core/plan/stages/contextIdIssuer';
import type { PipelineProgressEvent } from '../../../../../src/core/plan/stages/progressEvents';
import type { AgentAudit } from '../../../../../src/core/workflow/engine/workflowRunState';
import { auditDiscoveryReport, auditTicketResult } from '../../../../../src/core/plan/stages/handoffAudit';
import { ticketAgentResult } from '../schemas/fixtures';
import type { StageEnvironment } from '../../../../../src/core/plan/stages/stageEnvironment';
import { handOffModelDraft } from '../../../../../src/core/plan/stages/stageHandoff';
import { DEFAULT_PIPELINE_OPTIONS } from '../../../../../src/core/plan/stages/pipelineOptions';
import {
  discoveryReportDraft,
  pipelineModel,
  steppingClock,
  ticketAgentDraft,
} from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';

/**
 * One result handed on: a discovery report whose draft admits `src/app.ts`, or (`ticket`) a ticket proposal that
 * modifies `src/util/math.ts` and creates `test/T-1.test.ts`. `auditedFiles` are the files the audit knows.
 */
async function handOff(auditedFiles: readonly string[], ticket = false) {
  const model = pipelineModel({
    discovery_report: valueReply(discoveryReportDraft()),
    ticket_agent_result: valueReply(ticketAgentDraft('T-1')),
  });
  const clock = steppingClock();
  const contextIds = new ContextIdIssuer(RUN_ID, clock, 1);
  const upstream = contextIds.issue('discovery-orchestrator');
  const audit: AgentAudit = { checked: 0, findings: [] };
  const events: PipelineProgressEvent[] = [];
  const env = {
    model,
    clock,
    token: neverCancelled,
    contextIds,
    index: { visiblePaths: new Set(auditedFiles) },
    audit,
    options: DEFAULT_PIPELINE_OPTIONS,
    onProgress: (event: PipelineProgressEvent) => events.push(event),
  } as unknown as StageEnvironment;
  const stamp = { schemaVersion: SCHEMA_VERSION, upstreamContextId: upstream };
  const messages = [{ role: 'user' as const, content: 'Report on src.' }];
  const handoff = ticket
    ? await handOffModelDraft(
        env,
        { stage: 'tickets', agentId: 'ticket-agent-1' },
        { name: 'ticket_agent_result', description: 'A proposal.', audit: auditTicketResult },
        { ...ticketAgentRequest({ files: new Set(['src/util/math.ts']), ticketId: 'T-1' }), messages },
        (draft): TicketAgentResult => ({
          ...draft,
          ...stamp,
          resultId: contextIds.issue('ticket-agent'),
          discoveryResultId: contextIds.issue('discovery-collector'),
          upstreamContextChain: [upstream],
        }),
      )
    : await handOffModelDraft(
        env,
        { stage: 'discovery', agentId: 'discovery-agent-1' },
        { name: 'discovery_report', description: 'A report.', audit: auditDiscoveryReport },
        { ...discoveryReportRequest(new Set(['src/app.ts'])), messages },
        (draft): DiscoveryReport => ({ ...draft, ...stamp, resultId: contextIds.issue('discovery-agent') }),
      );
  return { handoff, audit, events, requests: model.requests.length };
}

describe('the handoff audit: spec 003’s checks read an accepted result, they repair nothing', () => {
  it('a clean result is audited, finds nothing and costs one request', async () => {
    const { audit, events, requests } = await handOff(['src/app.ts']);
    assert.equal(requests, 1);
    assert.deepEqual(audit, { checked: 1, findings: [] });
    assert.ok(!events.some(event => event.kind === 'handoff-audited'));
  });

  it('what the audit finds is recorded with the handoff and the agent; the result is kept and nothing is asked again', async () => {
    // The file vanished from what the audit knows.
    const { handoff, audit, events, requests } = await handOff(['src/other.ts']);
    assert.equal(requests, 1, 'no repair request: the audit is not a second repair loop');
    assert.equal('fileReferences' in handoff && handoff.fileReferences[0]?.filePath, 'src/app.ts');
    assert.deepEqual(
      audit.findings.map(finding => [finding.code, finding.severity, finding.agent, finding.where]),
      [['REF-001', 'warning', 'discovery-agent-1', '$.fileReferences[0].filePath']],
    );
    assert.ok(!events.some(event => event.kind === 'handoff-audited'), 'a warning is recorded, not told');
  });

  it('an error it finds is also told as progress', async () => {
    // The file the proposal creates exists by the time the audit reads it.
    const { audit, events } = await handOff(['src/util/math.ts', 'test/T-1.test.ts'], true);
    assert.deepEqual(
      audit.findings.map(finding => [finding.code, finding.agent, finding.where]),
      [['SEM-005', 'ticket-agent-1', '$.proposedChanges[1].path']],
    );
    const told = events.filter(event => event.kind === 'handoff-audited');
    assert.deepEqual(
      told.flatMap(event => (event.kind === 'handoff-audited' ? event.findings.map(f => f.code) : [])),
      ['SEM-005'],
    );
  });

  const everything = new Set(['src/app/main.ts', 'src/app/old.ts']);

  it('a ticket proposal: creating an existing file breaks its rule; what it changes must exist', () => {
    assert.deepEqual(auditTicketResult(ticketAgentResult(), everything), []);
    const findings = auditTicketResult(
      ticketAgentResult(),
      new Set(['src/app/main.ts', 'src/app/validate.ts', 'src/app/olds.ts']),
    );
    assert.deepEqual(
      findings.map(f => [f.code, f.severity, f.where]),
      [
        ['SEM-005', 'error', '$.proposedChanges[0].path'],
        ['REF-001', 'warning', '$.proposedChanges[2].path'],
      ],
    );
    assert.match(findings[1]?.message ?? '', /^Unknown file: src\/app\/old.ts \(did you mean "src\/app\/olds.ts"\?\)$/);
  });
});
