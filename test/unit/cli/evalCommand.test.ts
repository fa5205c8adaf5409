import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DECISIONS } from '../../../src/core/council/eval/decisions';
import { runCouncilMain as run } from '../../support/runCouncilMain';

describe('council eval: the council against one prompt to the same model', () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'council-eval-'));
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  it('--demo answers the demo decision both ways and prints the report with each side’s cost from its governor', async () => {
    const result = await run(['eval', '--demo'], project);
    assert.equal(result.code, 0, result.stderr);
    const report = result.stdout;
    assert.match(report, /^# Council eval: the council against a single prompt/);
    assert.match(report, /Model: Demo council \(scripted, no network\) · 1 decision · /);
    assert.match(report, /## sessions: Should our web API use stateless JWTs or server-side sessions\?/);
    // The council spent several requests; the single prompt exactly one, both priced by a spending governor.
    const cost = /\| cost \| (\d+) requests · [^|]+ \| 1 request · \d+ tokens \(\d+ in, \d+ out\)/.exec(report);
    assert.ok(cost, report);
    assert.ok(Number(cost[1]) > 3, 'the council made more than one request');
    // Facts read from the session itself, not parsed back from text.
    assert.match(report, /- _Council escalated to a debate:_ (yes: \d+ debate cycles|no: the first drafts settled it)/);
    assert.match(report, /- _Combined confidence:_ \d+% of the council backs "/);
    assert.match(
      report,
      /### The council\n\n> ## The council's answer\n(> .*\n)*?> Store sessions \*\*server-side in Redis\*\*/,
    );
    assert.match(report, /- _Vote:_ \d of \d back /, 'the vote sentence once, without its own "Vote:" label');
    assert.match(report, /### The single prompt\n\n> Use stateless JWTs/);
    assert.match(report, /council ask --yes/, 'the report says how the council was run');
    assert.match(result.stderr, /… 1\/1 sessions: the council\n… 1\/1 sessions: one prompt to the same model/);
    // The council's session is kept like any other (council sessions show <id> reads it).
    assert.equal((await readdir(join(project, '.council', 'sessions'))).length, 1);
  });

  it('refuses an unknown decision id, naming the ones there are, before spending anything', async () => {
    const result = await run(['eval', '--demo', '--only', 'nope'], project);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      new RegExp(`No eval decision "nope"\\. The decisions: ${DECISIONS.map(d => d.id).join(', ')}\\.`),
    );
    await assert.rejects(readdir(join(project, '.council', 'sessions')), /ENOENT/);
  });
});
