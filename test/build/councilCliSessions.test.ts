import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionLog } from '../../src/core/council/sessionLog';
import { DEMO_DECISION } from '../../src/cli/demo/demoModel';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { DemoCouncilEndpoint } from '../support/demoCouncilEndpoint';
import { TmuxTerminal } from '../support/tmuxTerminal';

/*
 * The built `council` command's session life, end to end in a real pseudo-terminal (tmux) against an OpenAI-compatible
 * HTTP endpoint on 127.0.0.1: a 429 and Ctrl+C stop a session without losing it and `council retry <id>` goes on
 * from there; a damaged session file is kept aside; `council extend <id>` debates further on a completed session.
 */

const SESSION_ID = /council retry ([\w-]+)/;

function sessionsFolder(project: string): string {
  return join(project, '.council', 'sessions');
}

function savedSession(project: string, id: string): SessionLog {
  return SessionLog.restore(JSON.parse(readFileSync(join(sessionsFolder(project), `${id}.json`), 'utf8')) as unknown);
}

/** Runs the command without a terminal; asynchronously, since the endpoint answers from this process. */
function council(
  project: string,
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'node',
      [COUNCIL_BUNDLE, ...args],
      { cwd: project, encoding: 'utf8', env: { ...process.env, ...environment }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ status: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

describe('the built council command: sessions stop without loss and go on', function () {
  this.timeout(90_000);
  const endpoint = new DemoCouncilEndpoint();
  let environment: Record<string, string>;
  let project: string;
  let terminal: TmuxTerminal;

  before(async () => {
    buildCouncilCli();
    environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: await endpoint.start() };
  });
  after(() => endpoint.stop());
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'council-cli-sessions-'));
    terminal = new TmuxTerminal('council-sessions');
    endpoint.delayMs = 0;
    endpoint.received.splice(0);
  });
  afterEach(() => {
    terminal.close();
    rmSync(project, { recursive: true, force: true });
  });

  const run = (args: string) =>
    terminal.start(`cd ${JSON.stringify(project)} && node ${JSON.stringify(COUNCIL_BUNDLE)} ${args}`, environment);

  it('a 429 mid-debate: the session is saved, the message says to wait, and council retry <id> completes it', async () => {
    endpoint.failRequest(3, {
      status: 429,
      body: { error: { message: 'Rate limit reached for requests', type: 'requests' } },
      headers: { 'retry-after': '2' },
    });
    run(`ask ${JSON.stringify(DEMO_DECISION)} --yes`);
    const stopped = await terminal.waitFor(/EXIT=\d+/, 'the command to stop');
    assert.match(stopped, /rate limiting requests \(429\); retry after 2 seconds/);
    assert.match(stopped, /The session is saved: .*\.council\/sessions\/[\w-]+\.json/);
    assert.match(stopped, /Wait 2 seconds, then go on from where it stopped/);
    assert.match(stopped, /EXIT=1/);
    const id = SESSION_ID.exec(stopped)?.[1] ?? assert.fail('no council retry <id> printed');
    const before = savedSession(project, id);
    assert.equal(before.state, 'debating', 'stopped in the debate');
    const opened = endpoint.received.filter(step => step === 'open_session').length;
    assert.equal(opened, 1);

    terminal.close();
    terminal = new TmuxTerminal('council-sessions');
    run(`retry ${id} --yes`);
    const done = await terminal.waitFor(/EXIT=\d+/, 'the retry to end', 30_000);
    assert.match(done, /Forecast: \d+(–\d+)? model requests/, 'the forecast before spending');
    assert.match(done, /EXIT=0/);
    assert.match(done, /Store sessions \*\*server-side in Redis\*\*/, 'the answer');
    const after = savedSession(project, id);
    assert.equal(after.state, 'completed');
    assert.equal(
      endpoint.received.filter(step => step === 'open_session').length,
      opened,
      'the opening is not repeated',
    );
    assert.ok(after.spent.requests > before.spent.requests);
  });

  it('Ctrl+C mid-debate stops the spending and saves; council retry <id> goes on to the answer', async () => {
    endpoint.delayMs = 3000;
    run(`ask ${JSON.stringify(DEMO_DECISION)} --yes`);
    await terminal.waitFor(/Debat|cycle 1|drafts/i, 'the debate to start');
    const pressed = Date.now();
    terminal.interrupt();
    const stopped = await terminal.waitFor(/EXIT=\d+/, 'the command to stop', 10_000);
    assert.ok(Date.now() - pressed < 2500, 'the requests in flight were aborted, not waited for');
    assert.match(stopped, /Stopping: no further model request will be sent/);
    assert.match(stopped, /Stopped with Ctrl\+C/);
    assert.match(stopped, /EXIT=130/);
    const id = SESSION_ID.exec(stopped)?.[1] ?? assert.fail('no council retry <id> printed');
    const sent = endpoint.received.length;
    await new Promise(resolve => setTimeout(resolve, 2000));
    assert.equal(endpoint.received.length, sent, 'nothing more was sent after the command stopped');
    const saved = savedSession(project, id);
    assert.notEqual(saved.state, 'completed');

    terminal.close();
    terminal = new TmuxTerminal('council-sessions');
    endpoint.delayMs = 0;
    run(`retry ${id} --yes`);
    const done = await terminal.waitFor(/EXIT=\d+/, 'the retry to end', 30_000);
    assert.match(done, /EXIT=0/);
    assert.equal(savedSession(project, id).state, 'completed');
  });

  it('a refused key, a dropped connection and an unreadable reply: each saved, each says what happened and what to do', async () => {
    endpoint.failRequest(1, { status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const refused = await council(project, ['ask', DEMO_DECISION, '--yes'], environment);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /refused the API key \(401\): Incorrect API key provided\. Check OPENAI_API_KEY/);
    assert.match(refused.stderr, /Set a key the endpoint accepts, then go on from where it stopped/);
    const id = SESSION_ID.exec(refused.stderr)?.[1] ?? assert.fail('no council retry <id> printed');
    assert.equal(savedSession(project, id).state, 'created', 'saved before anything was answered');

    endpoint.failRequest(1, 'drop');
    const dropped = await council(project, ['retry', id, '--yes'], environment);
    assert.equal(dropped.status, 1);
    assert.match(dropped.stderr, /the connection dropped, or the endpoint failed/);
    assert.match(dropped.stderr, new RegExp(`council retry ${id}`));

    const cut = {
      status: 200,
      body: {
        id: 'chatcmpl-cut',
        object: 'chat.completion',
        created: 1,
        model: 'demo-council',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Sure! Here is my opinion, no JSON.' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      },
    };
    for (let nth = 1; nth <= 3; nth += 1) endpoint.failRequest(nth, cut);
    const unreadable = await council(project, ['retry', id, '--yes'], environment);
    assert.equal(unreadable.status, 1);
    assert.match(unreadable.stderr, /The model's reply could not be read, even after asking it to repair it/);
    assert.match(unreadable.stderr, new RegExp(`council retry ${id}`));

    const done = await council(project, ['retry', id, '--yes'], environment);
    assert.equal(done.status, 0, done.stderr);
    assert.equal(savedSession(project, id).state, 'completed', 'nothing was lost on the way');
  });

  it('ask --demo in a terminal: each question printed once; Ctrl+C at a question saves; council retry <id> asks it again', async () => {
    const started = Date.now();
    run('ask --demo');
    const first = await terminal.waitFor(/\[Enter\] accept/, 'the first question');
    const seconds = (Date.now() - started) / 1000;
    const question = 'Must logging out, a password reset or banning a user end their sessions immediately?';
    assert.equal(first.split(question).length - 1, 1, 'the question is printed once');
    assert.doesNotMatch(first, /button/, "no word about the chat's buttons in a terminal");
    assert.match(first, /Clarifying question · round 1 of at most 3 · 1 more after this one/);
    terminal.interrupt();
    const stopped = await terminal.waitFor(/EXIT=\d+/, 'the command to stop');
    assert.match(stopped, /EXIT=130/);
    const id = SESSION_ID.exec(stopped)?.[1] ?? assert.fail('no council retry <id> printed');
    assert.equal(savedSession(project, id).state, 'clarifying');

    terminal.close();
    terminal = new TmuxTerminal('council-sessions');
    run(`retry ${id}`);
    await terminal.waitFor(/Go on\? \[y\/N\]/, 'the confirmation');
    terminal.type('y');
    const again = await terminal.waitFor(/\[Enter\] accept/, 'the open question again');
    assert.equal(again.split(question).length - 1, 1, 'asked again, once');
    terminal.type('');
    await terminal.waitFor(/\? Where does the app run/, 'the second question');
    terminal.type('s');
    const done = await terminal.waitFor(/EXIT=\d+/, 'the retry to end', 30_000);
    assert.match(done, /EXIT=0/);
    assert.equal(savedSession(project, id).state, 'completed');
    console.log(`      (first question after ${seconds.toFixed(2)} s)`);
  });

  it('a damaged session file is kept aside, never overwritten, with a message', async () => {
    const folder = sessionsFolder(project);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'broken-1.json'), '{"version": 2, "input": {');
    const result = await council(project, ['retry', 'broken-1', '--yes'], environment);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /Session broken-1 is damaged and cannot be read .*kept aside as .*broken-1\.json\.damaged-/,
    );
    assert.equal(endpoint.received.length, 0, 'nothing was spent');
    assert.equal(existsSync(join(folder, 'broken-1.json')), false, 'moved out of the way of any save');
    const [aside, ...more] = readdirSync(folder).filter(name => name.startsWith('broken-1.json.damaged-'));
    assert.equal(more.length, 0);
    assert.equal(readFileSync(join(folder, aside ?? ''), 'utf8'), '{"version": 2, "input": {', 'kept as it was');
  });

  it('council extend <id> on a completed session shows its forecast, asks [y/N], and debates further', async () => {
    // One cycle: the demo council agrees only in its second, so the cycle limit stops the debate and extend is offered.
    const asked = await council(project, ['ask', '--demo', '--cycles', '1', '--yes', '--json']);
    assert.equal(asked.status, 0, asked.stderr);
    const { sessionId, debateCycles } = JSON.parse(asked.stdout) as { sessionId: string; debateCycles: number };
    assert.equal(debateCycles, 1);
    const shown = await council(project, ['sessions', 'show', sessionId]);
    assert.equal(shown.status, 0, shown.stderr);
    run(`extend ${sessionId}`);
    const forecast = await terminal.waitFor(/Go on\? \[y\/N\]/, 'the confirmation');
    assert.match(forecast, /Council will debate further cycles on session [\w-]+ \(completed\)/);
    assert.match(forecast, /Model: Demo council/, 'a demo session goes on on the demo model');
    assert.match(forecast, /Forecast: \d+(–\d+)? model requests/);
    terminal.type('y');
    const done = await terminal.waitFor(/EXIT=\d+/, 'extend to end', 30_000);
    assert.match(done, /EXIT=0/);
    const log = savedSession(project, sessionId);
    assert.equal(log.state, 'completed');
    assert.ok(log.snapshot.context.debateCycles > debateCycles, 'debated further');
  });
});
