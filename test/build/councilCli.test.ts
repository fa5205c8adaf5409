import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionLog } from '../../src/core/council/sessionLog';
import { TmuxTerminal } from '../support/tmuxTerminal';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';

/*
 * The built `council` command, end to end: dist/cli/council.js bundled as esbuild.mjs bundles it, run in a real
 * pseudo-terminal (tmux) answering one question and skipping one, and without a terminal with --yes --json.
 */

function savedSession(project: string): SessionLog {
  const folder = join(project, '.council', 'sessions');
  const [file, ...more] = readdirSync(folder);
  assert.equal(more.length, 0, 'one session file');
  return SessionLog.restore(JSON.parse(readFileSync(join(folder, file ?? ''), 'utf8')) as unknown);
}

describe('the built council command', function () {
  this.timeout(60_000);
  let project: string;
  before(buildCouncilCli);
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'council-cli-e2e-'));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('starts with the node shebang', () => {
    assert.match(readFileSync(COUNCIL_BUNDLE, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });

  it('ask --demo in a terminal: one question answered, one skipped (a logged assumption), then the answer', async () => {
    const terminal = new TmuxTerminal('council-cli');
    const started = Date.now();
    terminal.start(`cd ${JSON.stringify(project)} && node ${JSON.stringify(COUNCIL_BUNDLE)} ask --demo`);
    try {
      await terminal.waitFor(/Recommended: .*\n.*\[Enter\] accept/, 'the first question');
      const firstQuestionSeconds = (Date.now() - started) / 1000;
      assert.match(
        terminal.screen(),
        /\? Must logging out, a password reset or banning a user end their sessions immediately\?/,
      );
      terminal.type('Within a minute is fine for logout; password reset must be immediate.');
      await terminal.waitFor(/\? Where does the app run/, 'the second question');
      terminal.type('s');
      const end = await terminal.waitFor(/EXIT=\d+/, 'the command to end', 30_000);
      assert.match(end, /EXIT=0/);
      assert.match(end, /Store sessions \*\*server-side in Redis\*\*/, 'the answer is printed');
      assert.match(end, /Saved: .*\.council\/sessions\/[\w-]+\.json/);
      const log = savedSession(project);
      const context = log.snapshot.context;
      assert.equal(log.state, 'completed');
      assert.deepEqual(
        context.answers.filter(a => !a.skipCommand).map(a => a.answer),
        ['Within a minute is fine for logout; password reset must be immediate.'],
      );
      const skipped = context.questions.find(q => q.question.startsWith('Where does the app run'));
      assert.ok(
        context.assumptionLog.some(a => a.relatedQuestionId === skipped?.questionId),
        'the skipped question is a logged assumption',
      );
      console.log(`      (first question after ${firstQuestionSeconds.toFixed(2)} s)`);
    } finally {
      terminal.close();
    }
  });

  it('ask --demo --yes --json without a terminal never waits and prints the typed result', () => {
    const result = spawnSync('node', [COUNCIL_BUNDLE, 'ask', '--demo', '--yes', '--json'], {
      cwd: project,
      encoding: 'utf8',
      input: '',
      env: { ...process.env, OPENAI_API_KEY: '' },
      timeout: 30_000,
    });
    assert.equal(result.status, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as {
      state: string;
      assumptions: string[];
      answer: string;
      spent: { requests: number };
    };
    assert.equal(printed.state, 'completed');
    assert.equal(printed.assumptions.length, 2);
    assert.match(printed.answer, /server-side in Redis/);
    assert.equal(savedSession(project).spent.requests, printed.spent.requests);
  });
});
