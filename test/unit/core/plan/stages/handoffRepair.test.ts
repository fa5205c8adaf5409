import assert from 'node:assert/strict';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { discoveryReportDraft, pipelineModel, requestText, steppingClock } from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';
import { runFixture } from './harness';
import { progressMessage } from '../../../../../src/core/deepWork/planProgress';

/** A report citing `src/missing.ts` in one reference among valid ones: normalization can drop it. */
function reportWithOneMissingFile() {
  const draft = discoveryReportDraft();
  const missing = { ...draft.fileReferences[0], referenceId: 'ref-2', filePath: 'src/missing.ts' };
  return {
    ...draft,
    fileReferences: [...draft.fileReferences, missing],
    relevanceScores: { ...draft.relevanceScores, 'src/missing.ts': 0.5 },
  };
}

describe('handoff repair and escalation', () => {
  it('drops a reference to a file that does not exist before validation, notes it, and asks for no repair', async () => {
    const model = pipelineModel({ discovery_report: valueReply(reportWithOneMissingFile()) });
    const { outcome, events } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.ok(
      !model.requests.some(r => /rejected by validation|did not match the required format/.test(requestText(r))),
    );
    const noted = events.flatMap(e => (e.kind === 'reply-normalized' ? e.changes : []));
    assert.ok(
      noted.includes('dropped the reference to "src/missing.ts", which is not a workspace file it may cite'),
      noted.join('\n'),
    );
    assert.ok(
      readBoard(outcome.state.blackboard).stages.discovery?.reports.every(report =>
        report.fileReferences.every(ref => ref.filePath !== 'src/missing.ts'),
      ),
    );
  });

  it('asks for the report as JSON in the reply when the provider refuses its tool schema, at no repair, and says so', async () => {
    const model = pipelineModel({
      discovery_report: request =>
        request.tools?.length
          ? { kind: 'error', error: new Error('Invalid JSON payload received. Unknown name "const"') }
          : valueReply(discoveryReportDraft()),
    });
    const { outcome, events } = await runFixture(model, { options: { maxRepairs: 0 } });
    assert.equal(outcome.status, 'completed');
    const refused = events.filter(e => e.kind === 'tool-schema-refused');
    assert.ok(refused.length > 0);
    assert.match(refused[0]?.kind === 'tool-schema-refused' ? refused[0].message : '', /Unknown name "const"/);
    assert.equal(
      progressMessage(refused[0]!),
      "Discovery: the model refused discovery-1's tool schema; asked for JSON in the reply instead (a request more, no repair)",
    );
    assert.equal(events.filter(e => e.kind === 'reply-retried').length, 0, 'no repair was spent');
  });

  it('sends what normalization cannot fix back to the model and accepts the repaired report', async () => {
    // Every query expects only the missing file: dropping them leaves fewer than the required three.
    const model = pipelineModel({
      discovery_report: [valueReply(discoveryReportDraft('src/missing.ts')), valueReply(discoveryReportDraft())],
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const repair = model.requests.find(r => requestText(r).includes('did not match the required format'));
    assert.ok(repair);
    assert.match(requestText(repair), /generatedQueries/);
  });

  it('ends a reply that stays unusable with a clear failure; the state stays resumable', async () => {
    const bad = pipelineModel({ discovery_report: valueReply(discoveryReportDraft('src/missing.ts')) });
    const first = await runFixture(bad);
    assert.equal(first.outcome.status, 'failed');
    assert.ok(first.outcome.status === 'failed');
    assert.match(first.outcome.message, /discovery_report/);
    assert.match(first.outcome.message, /after 3 attempts/);
    assert.equal(first.outcome.state.nextPhase, 'discovery');
    assert.ok(first.snapshot.items.some(i => i.outcome.status === 'failed'));

    // Resume the same run with a model that now behaves.
    const { outcome: resumed, snapshot } = await runFixture(pipelineModel(), {
      goal: 'ignored on resume',
      clock: steppingClock(Date.parse('2026-01-19T11:00:00.000Z')),
      resume: first.outcome.state,
    });
    assert.equal(resumed.status, 'completed');
    assert.equal(readBoard(resumed.state.blackboard).goal, 'Add subtraction to the calculator.');
    assert.ok(
      readBoard(resumed.state.blackboard).nextSequence > readBoard(first.outcome.state.blackboard).nextSequence,
    );
    // The history rode in the saved state: the resumed run goes on from the failed attempts.
    assert.deepEqual(snapshot.items.slice(0, first.snapshot.items.length), first.snapshot.items);
    assert.ok(snapshot.items.length > first.snapshot.items.length);
  });
});
