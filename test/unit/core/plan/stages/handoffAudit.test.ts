import assert from 'node:assert/strict';
import { neverCancelled } from '../../../../../src/core/llm/languageModel';
import { discoveryReportRequest } from '../../../../../src/core/plan/drafts/discoveryReportRequest';
import { ticketAgentRequest } from '../../../../../src/core/plan/drafts/ticketAgentRequest';
import { DiscoveryReport } from '../../../../../src/core/plan/schemas/discovery';
import { TicketAgentResult } from '../../../../../src/core/plan/schemas/tickets';
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
import { progressMessage } from '../../../../../src/core/deepWork/planProgress';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';

/**
 * One result handed on: a discovery report whose draft admits `src/app.ts`, or (`ticket`) a ticket proposal that
 * modifies `src/util/math.ts` and creates `test/T-1.test.ts`. `auditedFiles` are the files the audit knows.
 */
async function handOff(
  auditedFiles: readonly string[],
  ticket = false,
  built: (record: DiscoveryReport) => DiscoveryReport = record => record,
) {
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
        { stage: 'tickets', agentId: 'ticket-agent-1', to: 'tickets' },
        {
          name: 'ticket_agent_result',
          description: 'A proposal.',
          schema: TicketAgentResult,
          audit: auditTicketResult,
        },
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
        { stage: 'discovery', agentId: 'discovery-agent-1', to: 'discovery' },
        { name: 'discovery_report', description: 'A report.', schema: DiscoveryReport, audit: auditDiscoveryReport },
        { ...discoveryReportRequest(new Set(['src/app.ts'])), messages },
        (draft): DiscoveryReport => built({ ...draft, ...stamp, resultId: contextIds.issue('discovery-agent') }),
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
    // The stage summary in chat says what broke, how to fix it, and that the run went on.
    assert.equal(
      told[0] && progressMessage(told[0]),
      'Tickets: the audit of ticket-agent-1\'s result found 1 problem (SEM-005: test/T-1.test.ts already exists; use kind "modify" — Use kind "modify" for an existing file); the run goes on, the report lists them',
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

  it('a finding has spec 003’s error shape, from the one catalogue, and the handoff’s envelope', async () => {
    const { audit } = await handOff(['src/apps.ts']);
    assert.deepEqual(audit.findings, [
      {
        code: 'REF-001',
        severity: 'warning',
        message: 'Unknown file: src/app.ts (did you mean "src/apps.ts"?)',
        where: '$.fileReferences[0].filePath',
        expected: 'A cited file exists in the workspace',
        actual: 'src/app.ts',
        remediation: 'Verify the path',
        agent: 'discovery-agent-1',
        handoff: {
          to: 'discovery',
          at: audit.findings[0]?.handoff?.at,
          payload: 'discovery-report',
          schemaVersion: SCHEMA_VERSION,
        },
      },
    ]);
    assert.match(audit.findings[0]?.handoff?.at ?? '', /^\d{4}-\d\d-\d\dT/);
  });

  it('a record Council built wrongly is a stage error the user can retry (SCH-001), not handed on', async () => {
    // Council's completion drops a stamp the payload's schema requires.
    const broken = (record: DiscoveryReport) => ({ ...record, resultId: 'not-a-context-id' });
    await assert.rejects(
      handOff(['src/app.ts'], false, broken),
      (error: Error) =>
        error.name === 'ActionableError' &&
        /built discovery-agent-1's discovery_report wrongly \(SCH-001 at \$\.resultId/.test(error.message) &&
        /Try again/.test(error.message),
    );
  });

  it('the semantic layer: a report that cites no file (SEM-001) and a tag under 0.3 confidence (SEM-002) are warnings', () => {
    const report = DiscoveryReport.parse({
      ...discoveryReportDraft(),
      schemaVersion: SCHEMA_VERSION,
      resultId: new ContextIdIssuer(RUN_ID, steppingClock(), 1).issue('discovery-agent'),
      upstreamContextId: new ContextIdIssuer(RUN_ID, steppingClock(), 1).issue('discovery-orchestrator'),
    });
    const doubted = {
      ...report,
      fileReferences: [],
      semanticTags: report.semanticTags.map((tag, index) => (index === 1 ? { ...tag, confidence: 0.2 } : tag)),
    };
    assert.deepEqual(
      auditDiscoveryReport(doubted, new Set(['src/app.ts'])).map(f => [f.code, f.severity, f.where, f.actual]),
      [
        ['SEM-001', 'warning', '$.fileReferences', 'no file references'],
        ['SEM-002', 'warning', '$.semanticTags[1].confidence', '0.2'],
      ],
    );
    assert.deepEqual(auditDiscoveryReport(report, new Set(['src/app.ts'])), []);
  });

  it('the constitutional layer: a proposal that writes Council’s run folder or .git breaks CON-001', () => {
    // What a model plausibly proposes: "record the decision" in Council's own folder, and a hook in .git.
    const result = ticketAgentResult();
    const proposal: TicketAgentResult = {
      ...result,
      proposedChanges: [
        { kind: 'create', path: '.council/runs/notes.md', content: 'decided\n', rationale: 'record it' },
        { kind: 'create', path: '.git/hooks/pre-commit', content: 'npm test\n', rationale: 'guard' },
        { kind: 'create', path: '.gitignore', content: 'out\n', rationale: 'ignore builds' },
        // A case-insensitive file system writes this into .git too.
        { kind: 'create', path: '.GIT/info/exclude', content: 'out\n', rationale: 'ignore builds' },
        { kind: 'create', path: '.github/workflows/ci.yml', content: 'on: push\n', rationale: 'run the tests' },
      ],
    };
    assert.deepEqual(
      auditTicketResult(proposal, everything).map(f => [f.code, f.severity, f.where]),
      [
        ['CON-001', 'error', '$.proposedChanges[0].path'],
        ['CON-001', 'error', '$.proposedChanges[1].path'],
        ['CON-001', 'error', '$.proposedChanges[3].path'],
      ],
    );
  });
});
