import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoredSession } from '../../../src/core/session/storedSession';
import { councilResponder } from '../../support/councilHarness';
import { ScriptedModel } from '../../support/scriptedModel';
import { runCouncilMain as run } from '../../support/runCouncilMain';

describe('the council command: ask, sessions, sessions show', () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'council-cli-'));
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  it('ask --yes --json runs the council without waiting and saves the session as a versioned file', async () => {
    const model = new ScriptedModel(councilResponder());
    const result = await run(['ask', 'Should we use PostgreSQL or MongoDB?', '--yes', '--json'], project, model);
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as {
      sessionId: string;
      state: string;
      assumptions: string[];
      answer: string | null;
      questions: { status: string }[];
      spent: { requests: number };
    };
    assert.equal(printed.state, 'completed');
    assert.ok(printed.answer && printed.answer.length > 0);
    assert.ok(printed.questions.length > 0 && printed.questions.every(q => q.status !== 'answered'));
    assert.equal(printed.assumptions.length, printed.questions.length, 'each recommended answer is an assumption');
    assert.equal(printed.spent.requests, model.callCount);
    assert.match(result.stderr, /… /, 'progress lines went to stderr');
    const files = await readdir(join(project, '.council', 'sessions'));
    assert.deepEqual(files, [`${printed.sessionId}.json`]);
    const stored = readStoredSession(
      JSON.parse(await readFile(join(project, '.council', 'sessions', files[0] ?? ''), 'utf8')),
    );
    assert.equal(stored.kind, 'current');

    const listed = await run(['sessions'], project);
    assert.match(
      listed.stdout,
      new RegExp(`^${printed.sessionId}  .* completed .* Should we use PostgreSQL or MongoDB\\?`, 'm'),
    );
    const shown = await run(['sessions', 'show', printed.sessionId], project);
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /Should we use PostgreSQL or MongoDB\?/);
  });

  it("ask keeps the project's finished debates, and the next forecast follows how they ended", async () => {
    const agreeing = () =>
      new ScriptedModel(councilResponder({ questions: 0, convergeAtCycle: 1, decisionOptions: true }));
    const first = await run(['ask', 'Queue or cron for the nightly export?', '--yes'], project, agreeing());
    assert.equal(first.code, 0, first.stderr);
    // Three seats and no history: the drafts, one later cycle of two, the answer.
    assert.match(first.stdout, /This debate expects about 6 more requests/);
    const kept = JSON.parse(await readFile(join(project, '.council', 'debate-history.json'), 'utf8')) as unknown[];
    assert.equal(kept.length, 1);
    const second = await run(['ask', 'Queue or cron for the weekly export?', '--yes'], project, agreeing());
    assert.equal(second.code, 0, second.stderr);
    // The project's one debate agreed at the first vote: the drafts and the answer.
    assert.match(second.stdout, /This debate expects about 4 more requests/);
  });

  it('a damaged debate history is an empty one: the command still runs, and the next debate is kept', async () => {
    await mkdir(join(project, '.council'), { recursive: true });
    await writeFile(join(project, '.council', 'debate-history.json'), '{ not json', 'utf8');
    const model = new ScriptedModel(councilResponder({ questions: 0, convergeAtCycle: 1, decisionOptions: true }));
    const result = await run(['ask', 'Queue or cron?', '--yes'], project, model);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /This debate expects about 6 more requests/);
    const kept = JSON.parse(await readFile(join(project, '.council', 'debate-history.json'), 'utf8')) as unknown[];
    assert.equal(kept.length, 1);
  });

  it('ask --demo plays the demo council with no key and no network', async () => {
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const result = await run(['ask', '--demo', '--yes', '--json'], project);
      assert.equal(result.code, 0, result.stderr);
      const printed = JSON.parse(result.stdout) as { decision: string; answer: string; assumptions: string[] };
      assert.equal(printed.decision, 'How should we store user sessions for our web app?');
      assert.match(printed.answer, /server-side in Redis/);
      assert.equal(printed.assumptions.length, 2);
    } finally {
      if (key !== undefined) process.env.OPENAI_API_KEY = key;
    }
  });

  it('says what is wrong: no decision, an unknown session, no API key', async () => {
    const noDecision = await run(['ask', '--yes'], project);
    assert.equal(noDecision.code, 2);
    assert.match(noDecision.stderr, /council ask needs the decision/);
    const unknown = await run(['sessions', 'show', 'nope'], project);
    assert.match(unknown.stderr, /No session nope in /);
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const noKey = await run(['ask', 'Anything?', '--yes'], project);
      assert.equal(noKey.code, 1);
      assert.match(noKey.stderr, /set OPENAI_API_KEY/);
    } finally {
      if (key !== undefined) process.env.OPENAI_API_KEY = key;
    }
  });

  it("record writes the decision into the project's folder, numbered after the records there; never over one; precedent reaches ask", async () => {
    await mkdir(join(project, 'doc', 'adr'), { recursive: true });
    await writeFile(join(project, '.adr-dir'), 'doc/adr\n');
    await writeFile(
      join(project, 'doc', 'adr', '0001-store-data-in-mongodb.md'),
      '# 1. Store data in MongoDB\n\nDate: 2025-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need a database for our data; PostgreSQL and MongoDB were compared.\n\n## Decision\n\nWe will use MongoDB.\n',
    );
    const model = new ScriptedModel(councilResponder());
    const asked = await run(
      ['ask', 'Should we use PostgreSQL or MongoDB for our data?', '--yes', '--json'],
      project,
      model,
    );
    assert.equal(asked.code, 0, asked.stderr);
    const { sessionId } = JSON.parse(asked.stdout) as { sessionId: string };
    const stored = JSON.parse(await readFile(join(project, '.council', 'sessions', `${sessionId}.json`), 'utf8')) as {
      input: { precedent?: { records: { path: string }[] } };
    };
    assert.deepEqual(
      stored.input.precedent?.records.map(r => r.path),
      ['doc/adr/0001-store-data-in-mongodb.md'],
      "the project's record reached the council as precedent",
    );

    const refused = await run(['record', sessionId], project);
    assert.equal(refused.code, 1, 'no terminal to confirm on and no --yes: nothing written');
    assert.match(refused.stdout, /Store data in MongoDB|PostgreSQL or MongoDB/, 'the record is shown first');
    assert.deepEqual(await readdir(join(project, 'doc', 'adr')), ['0001-store-data-in-mongodb.md']);

    const written = await run(['record', sessionId, '--yes'], project);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stderr, /Wrote doc\/adr\/0002-.+\.md \(status proposed\)/);
    const files = await readdir(join(project, 'doc', 'adr'));
    assert.equal(files.length, 2);
    const text = await readFile(join(project, 'doc', 'adr', files.find(f => f.startsWith('0002-')) ?? ''), 'utf8');
    assert.match(text, /## Status\n\nProposed/i, 'Nygard, as the folder holds');
    assert.ok(text.includes(sessionId));
    assert.match((await run(['record', 'nope', '--yes'], project)).stderr, /No session nope/);
  });
});
