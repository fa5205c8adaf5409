import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { ContextId, contextIdOf, formatContextId } from '../../../../../src/core/plan/schemas/contextId';
import { newRunFolder, newRunId } from '../../../../../src/core/deepWork/runHome';
import { RUN_ID } from '../../../../../src/core/workflow/engine/runId';
import { AT, RUN } from './fixtures';

const VALID = `${RUN}/planning-agent/3/${AT}`;

describe('ContextId', () => {
  it('formats parts as wf-{uuid}/{agentType}/{seq}/{timestamp}, an id the schema accepts', () => {
    const parts = { workflowRunId: RUN, agentType: 'planning-agent' as const, sequenceNumber: 3, timestamp: AT };
    assert.equal(formatContextId(parts), VALID);
    assert.equal(ContextId.safeParse(VALID).success, true);
  });

  it('rejects a malformed run id, agent type, sequence number or timestamp', () => {
    for (const id of [
      `wf-123/planning-agent/1/${AT}`,
      `${RUN}/janitor/1/${AT}`,
      `${RUN}/review/0/${AT}`,
      `${RUN}/review/01/${AT}`,
      `${RUN}/review/1/yesterday`,
      `${RUN}/review/1`,
    ]) {
      assert.equal(ContextId.safeParse(id).success, false, id);
    }
  });

  it('contextIdOf restricts which agent type may appear', () => {
    const collectorId = contextIdOf('discovery-collector');
    assert.equal(collectorId.safeParse(`${RUN}/discovery-collector/1/${AT}`).success, true);
    const result = collectorId.safeParse(`${RUN}/discovery-agent/1/${AT}`);
    assert.equal(result.success, false);
    assert.match(result.error?.issues[0]?.message ?? '', /must be one of: discovery-collector/);
  });

  it('publishes a JSON Schema pattern that agrees with the validator', () => {
    const pattern = new RegExp((z.toJSONSchema(contextIdOf('review')) as { pattern: string }).pattern);
    const samples = [
      `${RUN}/review/12/${AT}`,
      `${RUN}/review/1/2026-01-19T10:00:00Z`,
      `${RUN}/merger/1/${AT}`,
      `${RUN}/review/0/${AT}`,
      `wf-${RUN}/review/1/${AT}`,
      `${RUN}/review/1/2026-01-19 10:00:00Z`,
      `${RUN}/review/1/${AT}/extra`,
    ];
    for (const sample of samples) {
      assert.equal(pattern.test(sample), contextIdOf('review').safeParse(sample).success, sample);
    }
  });

  it("newRunId prefixes a uuid from the IdSource: `wf-` for /plan's runs, `run-` for any other workflow's", () => {
    const ids = { next: () => '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b' };
    assert.equal(newRunId('plan', ids), RUN);
    const generic = newRunId('review-code', ids);
    assert.equal(generic, RUN.replace(/^wf-/, 'run-'));
    for (const runId of [RUN, generic]) {
      assert.match(runId, RUN_ID);
      assert.equal(ContextId.safeParse(`${runId}/orchestrator/1/${AT}`).success, true, runId);
    }
    assert.equal(ContextId.safeParse(`${RUN.replace(/^wf-/, 'xx-')}/orchestrator/1/${AT}`).success, false);
  });

  it('a new run of /plan writes under .council/runs, any other workflow under .council/workflow-runs', () => {
    assert.equal(newRunFolder('plan', RUN), `.council/runs/${RUN}`);
    assert.equal(newRunFolder('review-code', 'run-1'), '.council/workflow-runs/run-1');
  });
});
