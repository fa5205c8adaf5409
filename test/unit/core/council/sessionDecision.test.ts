import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { decisionOfSession } from '../../../../src/core/council/sessionDecision';
import { decisionsMarkdown } from '../../../../src/core/council/decisionsList';
import { chatIntent } from '../../../../src/core/council/chatIntent';
import { continuationCommands } from '../../../../src/core/council/toolSession';
import { councilRig } from '../../../support/councilHarness';
import { SCRIPT_OPTIONS, type CouncilScriptOptions } from '../../../support/councilScript';

const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 2, adminMaxDebateCycles: 10 };
const FACTS = { model: 'Scripted', cost: '7 requests' };

async function session(script: CouncilScriptOptions, answer?: string) {
  const rig = await councilRig({ script });
  const log = newCouncilSession({ request: 'JWT or server-side sessions?', userId: 'u', limits: LIMITS }, rig.deps);
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  if (answer !== undefined) await runCouncilTurn(log, { kind: 'answer', text: answer }, rig.deps);
  return log;
}

describe('a completed session as a decision record', () => {
  it('carries the question, the answered question, the options with who argued for them, the vote and the dissent verbatim', async () => {
    const log = await session(
      { questions: 1, decisionOptions: true, convergeAtCycle: 'never', dissenters: 1 },
      'About 200 users.',
    );
    assert.equal(log.state, 'completed');
    const decision = decisionOfSession(log.snapshot, FACTS);
    assert.ok(decision);
    assert.equal(decision.question, 'JWT or server-side sessions?');
    assert.deepEqual(
      decision.answered.map(a => a.answer),
      ['About 200 users.'],
    );
    assert.deepEqual(
      decision.options.map(o => o.name),
      [...SCRIPT_OPTIONS],
    );
    assert.equal(decision.chosen, SCRIPT_OPTIONS[1], 'the option most of the council backs');
    assert.ok(decision.options[1]!.pros.length >= 2, 'the backers argued for the chosen option');
    assert.ok(
      decision.options[1]!.cons.some(c => c.text.startsWith('backs another option')),
      'the dissent counts against it',
    );
    assert.ok(decision.dissent, 'the dissent is kept');
    const dissentTurn = [...log.snapshot.context.messageTurns]
      .reverse()
      .find(t => t.messageType === 'discussion' && t.option === '1');
    assert.equal(decision.dissent.text, dissentTurn?.content, 'verbatim, not smoothed');
    assert.ok(decision.confidence > 0.5 && decision.confidence < 1, `${decision.confidence}`);
    assert.match(decision.vote, /^Vote: 2 of 3 back option 2/);
    assert.equal(decision.answer, log.snapshot.context.finalAnswer);
    assert.deepEqual([decision.model, decision.cost, decision.sessionId], ['Scripted', '7 requests', log.sessionId]);
  });

  it('has nothing to record before the final answer, and a tool call that asks says why', async () => {
    const log = await session({ questions: 2 });
    assert.equal(log.state, 'clarifying');
    assert.equal(decisionOfSession(log.snapshot, FACTS), undefined);
    assert.match(
      JSON.stringify(continuationCommands(log.snapshot, { action: 'record' })),
      /has no final answer yet \(it is clarifying\)/,
    );
    const done = await session({ questions: 0, convergeAtCycle: 1 });
    assert.deepEqual(
      continuationCommands(done.snapshot, { action: 'record' }),
      { commands: [] },
      'runs no council turn',
    );
  });

  it('/record and /decisions are read as such; /record needs a session', () => {
    assert.deepEqual(chatIntent('record', '', 'completed'), { kind: 'record' });
    assert.equal(chatIntent('record', '', 'none').kind, 'explain');
    assert.deepEqual(chatIntent('decisions', ' caching ', 'none'), { kind: 'decisions', query: 'caching' });
  });
});

describe('/decisions', () => {
  const record = (number: number, title: string, body: string, status = 'accepted') => ({
    path: `docs/decisions/${String(number).padStart(4, '0')}-x.md`,
    number,
    title,
    status,
    date: '2026-01-02',
    body,
  });
  const catalog = {
    records: [
      record(1, 'Use PostgreSQL for orders', 'We store orders in PostgreSQL; relational queries and transactions.'),
      record(2, 'Cache sessions in Redis', 'Sessions live in Redis with a TTL; the cache is shared.', 'proposed'),
    ],
    malformed: [{ path: 'docs/decisions/notes.md', reason: 'it has no title' }],
    names: [],
  };

  it('lists every record with its status and date, linked, and names the files it skipped', () => {
    const text = decisionsMarkdown('docs/decisions', catalog, '');
    assert.match(text, /\(2\):/);
    assert.match(
      text,
      /- \*\*1\.\*\* \[Use PostgreSQL for orders\]\(docs\/decisions\/0001-x\.md\) — accepted, 2026-01-02/,
    );
    assert.match(text, /`docs\/decisions\/notes\.md`: it has no title/);
  });

  it('with a question, only the records that bear on it; none says so', () => {
    const text = decisionsMarkdown('docs/decisions', catalog, 'Should sessions go to Redis?');
    assert.match(text, /Cache sessions in Redis/);
    assert.doesNotMatch(text, /PostgreSQL/);
    assert.match(decisionsMarkdown('docs/decisions', catalog, 'frontend framework choice'), /None of the 2 records/);
    assert.match(
      decisionsMarkdown('docs/adr', { records: [], malformed: [], names: [] }, ''),
      /No decision records in `docs\/adr\/` yet/,
    );
  });
});
