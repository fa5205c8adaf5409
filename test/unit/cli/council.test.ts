import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/council';
import { readStoredSession } from '../../../src/core/session/storedSession';
import { councilResponder } from '../../support/councilHarness';
import { ScriptedModel } from '../../support/scriptedModel';

/** Runs `main`, capturing what it wrote to stdout and stderr. */
async function run(argv: readonly string[], project: string, model?: ScriptedModel) {
  const out: string[] = [];
  const err: string[] = [];
  const { write: stdout } = process.stdout;
  const { write: stderr } = process.stderr;
  process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(chunk) > 0) as typeof process.stderr.write;
  try {
    const code = await main(argv, project, model);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

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
});
