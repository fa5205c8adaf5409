import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import type { CouncilDeps } from '../../../../src/core/council/ports';
import { PRECEDENT_MAX_TOKENS } from '../../../../src/core/council/precedentLookup';
import { messageText } from '../../../../src/core/llm/usage';
import { sessionNextSteps } from '../../../../src/core/council/sessionNextSteps';
import { decisionOfSession } from '../../../../src/core/council/sessionDecision';
import { councilRig, type CouncilRig } from '../../../support/councilHarness';
import { InMemoryWorkspaceReader } from '../../../support/inMemoryWorkspaceReader';

const RECORDS = {
  '.adr-dir': 'doc/adr\n',
  'doc/adr/0001-record-architecture-decisions.md':
    '# 1. Record architecture decisions\n\nDate: 2025-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record decisions.\n\n## Decision\n\nWe will use ADRs.\n',
  'doc/adr/0002-store-events-in-postgresql.md':
    '# 2. Store events in PostgreSQL\n\nDate: 2025-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nOrder events must be stored durably and replayed; the team runs PostgreSQL already.\n\n## Decision\n\nWe will store order events in a PostgreSQL events table, partitioned by month.\n',
  'doc/adr/0003-use-react-for-the-admin-ui.md':
    '# 3. Use React for the admin UI\n\nDate: 2025-03-01\n\n## Status\n\nAccepted\n\n## Context\n\nThe admin UI needs components.\n\n## Decision\n\nWe will use React.\n',
};

async function council(
  request: string,
  withRecords: boolean,
  opposeRecords = 0,
  cycles = 1,
): Promise<{ rig: CouncilRig; state: string; log: ReturnType<typeof newCouncilSession> }> {
  const rig = await councilRig({ script: { convergeAtCycle: cycles, opposeRecords } });
  const deps: CouncilDeps = withRecords
    ? { ...rig.deps, decisions: { reader: new InMemoryWorkspaceReader(RECORDS) } }
    : rig.deps;
  const log = newCouncilSession(
    {
      request,
      userId: 'user-1',
      limits: { maxClarificationRounds: 1, debateCycleLimit: cycles, adminMaxDebateCycles: cycles },
      skipClarification: true,
    },
    rig.deps,
  );
  await runCouncilTurn(log, { kind: 'retry' }, deps);
  return { rig, state: log.state, log };
}

const carrying = (rig: CouncilRig, source: string) =>
  rig.model.requests.filter(r => r.messages.map(messageText).join('\n').includes(`source="${source}"`));

describe('precedent in the council', () => {
  const related = 'Should we keep order events in PostgreSQL or move them to Kafka?';

  it('gives the council the record that bears on the question, fenced, in the drafts and the answer, at no extra request', async () => {
    const withRecords = await council(related, true);
    const without = await council(related, false);
    assert.equal(withRecords.state, 'completed');
    assert.deepEqual(
      withRecords.log.snapshot.context.precedent?.records.map(r => r.path),
      ['doc/adr/0002-store-events-in-postgresql.md'],
    );
    assert.equal(withRecords.rig.model.requests.length, without.rig.model.requests.length);
    const carried = carrying(withRecords.rig, 'adr-2');
    // Every persona's first draft and the written answer carry it; nothing carries the unrelated React record.
    const drafts = withRecords.rig.model.requests.filter(r => r.tools[0]?.name === 'contribute_to_debate');
    assert.ok(drafts.length >= 2);
    assert.ok(drafts.every(r => carried.includes(r)));
    assert.ok(
      carried.some(r => r.tools.length === 0),
      'the synthesis request carries the precedent',
    );
    assert.equal(carrying(withRecords.rig, 'adr-3').length, 0);
    assert.match(
      withRecords.rig.output.text,
      /Earlier decisions considered:\*\* 2\. Store events in PostgreSQL \(accepted\): the council agrees with it\./,
    );

    const added = withRecords.log.spent.inputTokens - without.log.spent.inputTokens;
    assert.ok(added > 0, 'the records cost prompt tokens');
    assert.ok(
      added <= carried.length * (PRECEDENT_MAX_TOKENS + 50),
      `added ${added} tokens over ${carried.length} requests`,
    );
  });

  it('finds no precedent for an unrelated question and the prompts carry none', async () => {
    const { rig, log } = await council('Which font should our marketing site use for headings?', true);
    assert.equal(log.snapshot.context.precedent, undefined);
    assert.equal(
      rig.model.requests.filter(r => r.messages.map(messageText).join('\n').includes('<untrusted-data source="adr-'))
        .length,
      0,
    );
    assert.doesNotMatch(rig.output.text, /Earlier decisions/);
  });

  it('keeps the precedent with the stored session, so a restored session shows the council the same records', async () => {
    const { log } = await council(related, true);
    assert.equal(log.stored.input.precedent?.records[0]?.number, 2);
  });

  it('each persona says which records its position goes against (a required field, only the records given)', async () => {
    const { rig } = await council(related, true);
    const draft = rig.model.requests.find(r => r.tools[0]?.name === 'contribute_to_debate');
    const schema = JSON.stringify(draft?.tools[0]?.inputSchema);
    assert.match(schema, /"againstRecords":\{"maxItems":1,"type":"array","items":\{"type":"string","enum":\["2"\]\}/);
    assert.match(schema, /"required":\[[^\]]*"againstRecords"/);
    const { rig: plain } = await council(related, false);
    const plainDraft = plain.model.requests.find(r => r.tools[0]?.name === 'contribute_to_debate');
    assert.doesNotMatch(
      JSON.stringify(plainDraft?.tools[0]?.inputSchema),
      /againstRecords/,
      'not asked without records',
    );
  });

  it('a council that goes against an accepted record says so, offers to supersede it, and the record says it disagreed', async () => {
    const { rig, log } = await council(related, true, 2);
    assert.match(
      rig.output.text,
      /2\. Store events in PostgreSQL \(accepted\): the council goes against it \([^)]+, [^)]+\) — an accepted record; recording this decision would supersede it/,
    );
    const record = sessionNextSteps(log.snapshot).find(step => step.kind === 'record');
    assert.deepEqual(record, {
      kind: 'record',
      sessionId: log.sessionId,
      supersedes: { path: 'doc/adr/0002-store-events-in-postgresql.md', number: 2 },
    });
    assert.deepEqual(decisionOfSession(log.snapshot, { model: 'm', cost: 'c' })?.precedent, [
      { record: '2. Store events in PostgreSQL', agrees: false },
    ]);
    const minority = await council(related, true, 1);
    assert.equal(
      sessionNextSteps(minority.log.snapshot).find(step => step.kind === 'record')?.supersedes,
      undefined,
      'one persona of three against it is not the council going against it',
    );
    assert.match(minority.rig.output.text, /most agree; [^;]+ would go against it/);
  });

  it('later cycles carry the records as a short fenced list (not their text) and still ask where each persona stands', async () => {
    const { rig, log } = await council(related, true, 2, 2);
    assert.equal(log.state, 'completed');
    assert.equal(log.snapshot.context.debateCycles, 2);
    const later = rig.model.requests.filter(
      r => r.tools[0]?.name === 'contribute_to_debate' && messageText(r.messages.at(-2)!).length > 0,
    );
    const cycle2 = later.filter(r => r.messages.map(messageText).join('\n').includes('This is debate cycle 2.'));
    assert.ok(cycle2.length >= 2, 'cycle-2 requests');
    for (const request of cycle2) {
      const text = request.messages.map(messageText).join('\n');
      assert.match(
        text,
        /<untrusted-data source="adr-2">\n2\. Store events in PostgreSQL \(accepted\)\n<\/untrusted-data>/,
      );
      assert.doesNotMatch(text, /partitioned by month/, "the record's text is not resent");
      assert.match(JSON.stringify(request.tools[0]?.inputSchema), /"againstRecords"/);
    }
    assert.equal(sessionNextSteps(log.snapshot).find(s => s.kind === 'record')?.supersedes?.number, 2);
  });
});
