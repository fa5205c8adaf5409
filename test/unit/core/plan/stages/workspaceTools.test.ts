import assert from 'node:assert/strict';
import { globToRegExp } from '../../../../../src/core/workspace/glob';
import { InMemoryWorkspaceReader } from '../../../../support/inMemoryWorkspaceReader';
import { indexWorkspace } from '../../../../../src/core/workspace/workspaceIndex';
import {
  DEFAULT_WORKSPACE_TOOL_LIMITS,
  WORKSPACE_TOOLS,
  type WorkspaceToolRuntime,
} from '../../../../../src/core/workspace/workspaceTools';
import { splitIntoAreas } from '../../../../../src/core/plan/stages/discovery/workspaceAreas';
import { FIXTURE_FILES } from '../../../../support/pipelineScript';

async function runtimeFor(
  files: Record<string, string>,
  ignored: string[] = [],
  limits = DEFAULT_WORKSPACE_TOOL_LIMITS,
): Promise<WorkspaceToolRuntime> {
  const reader = new InMemoryWorkspaceReader(files, { ignored });
  return { reader, index: await indexWorkspace(reader), limits };
}

function call(name: string, input: unknown, runtime: WorkspaceToolRuntime): Promise<string> {
  const tool = WORKSPACE_TOOLS.find(t => t.definition.name === name);
  if (!tool) throw new Error(name);
  return tool.invoke(input, runtime);
}

describe('read-only workspace tools', () => {
  it('are exactly list_files, read_file_range and search_text, each with a JSON Schema input', () => {
    assert.deepEqual(
      WORKSPACE_TOOLS.map(t => t.definition.name),
      ['list_files', 'read_file_range', 'search_text'],
    );
    for (const tool of WORKSPACE_TOOLS) assert.equal((tool.definition.inputSchema as { type?: string }).type, 'object');
  });

  it('list_files skips dependencies, VCS, build output, binaries and files the reader reports as ignored', async () => {
    const runtime = await runtimeFor({ ...FIXTURE_FILES, '.git/HEAD': 'ref', 'out/x.js': 'x', 'secret.env': 'KEY=1' }, [
      'secret.env',
    ]);
    const text = await call('list_files', {}, runtime);
    assert.match(text, /^<untrusted-data source="workspace_list_files">/);
    for (const hidden of ['node_modules', '.git/', 'dist/', 'out/', 'logo.png', 'secret.env'])
      assert.ok(!text.includes(hidden), hidden);
    assert.match(text, /src\/app\.ts/);
    assert.match(await call('list_files', { glob: 'src/**/*.ts' }, runtime), /src\/util\/math\.ts/);
    assert.doesNotMatch(await call('list_files', { glob: 'src/*.ts' }, runtime), /math/);
  });

  it('read_file_range returns numbered, fenced, size-bounded lines and refuses hidden or missing files', async () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n');
    const runtime = await runtimeFor({ 'a.ts': long, 'dist/b.js': 'b', 'c.dat': 'ok\u0000' }, [], {
      ...DEFAULT_WORKSPACE_TOOL_LIMITS,
      maxReadChars: 500,
    });
    const text = await call('read_file_range', { path: 'a.ts', startLine: 2, endLine: 50 }, runtime);
    assert.match(text, /a\.ts lines 2-\d+ of 50/);
    assert.match(text, /^2: line 2/m);
    assert.match(text, /cut at line \d+; read on from/);
    assert.ok(text.length < 800);
    assert.match(
      await call('read_file_range', { path: 'dist/b.js', startLine: 1, endLine: 1 }, runtime),
      /^Error: .*ignored or binary/,
    );
    assert.match(
      await call('read_file_range', { path: 'c.dat', startLine: 1, endLine: 1 }, runtime),
      /^Error: c\.dat is binary/,
    );
    assert.match(
      await call('read_file_range', { path: 'nope.ts', startLine: 1, endLine: 1 }, runtime),
      /does not exist/,
    );
    assert.match(
      await call('read_file_range', { path: 'a.ts', startLine: 5, endLine: 1 }, runtime),
      /^Error: invalid input/,
    );
  });

  it('search_text returns bounded matches from visible files only', async () => {
    const runtime = await runtimeFor({
      'a.ts': 'needle one\nneedle two\nhay',
      'node_modules/x.js': 'needle',
      'b.ts': 'needle three',
    });
    const text = await call('search_text', { query: 'needle', limit: 2 }, runtime);
    assert.match(text, /a\.ts:1: needle one/);
    assert.doesNotMatch(text, /node_modules/);
    assert.equal(text.split('\n').filter(line => line.includes('needle')).length, 2);
  });

  it('note every path they show the model (read or matched apart from listed), and none they hide or refuse', async () => {
    const seen = new Set<string>();
    const listed = new Set<string>();
    const files = { ...FIXTURE_FILES, 'dist/x.js': 'needle', 'src/needle.ts': 'export const needle = 1;' };
    const runtime = { ...(await runtimeFor(files)), seen, listed };
    await call('read_file_range', { path: 'src/util/math.ts', startLine: 1, endLine: 2 }, runtime);
    await call('read_file_range', { path: 'dist/x.js', startLine: 1, endLine: 1 }, runtime);
    await call('read_file_range', { path: 'src/missing.ts', startLine: 1, endLine: 1 }, runtime);
    assert.deepEqual([...seen], ['src/util/math.ts']);
    await call('search_text', { query: 'needle' }, runtime);
    assert.deepEqual([...seen], ['src/util/math.ts', 'src/needle.ts'], 'the visible match noted, the hidden one not');
    await call('list_files', { glob: 'lib/**' }, runtime);
    assert.deepEqual([...seen], ['src/util/math.ts', 'src/needle.ts']);
    assert.deepEqual([...listed], ['lib/format.ts']);
  });

  it('globs and area splitting are deterministic', () => {
    assert.ok(globToRegExp('**/*.{ts,md}').test('docs/readme.md'));
    assert.ok(!globToRegExp('*.ts').test('src/app.ts'));
    // Read as a glob reader does: a comma outside braces is part of a name, brackets are a class.
    assert.ok(globToRegExp('a,b').test('a,b'));
    assert.ok(!globToRegExp('a,b').test('a'));
    assert.ok(globToRegExp('src/f[0-9].ts').test('src/f7.ts'));
    assert.ok(!globToRegExp('src/f[0-9].ts').test('src/f[0-9].ts'));
    assert.ok(globToRegExp('**/*.yml').test('.github/ci.yml'));
    const areas = splitIntoAreas(['src/a/1.ts', 'src/a/2.ts', 'src/b/1.ts', 'src/c/1.ts'], 2);
    assert.deepEqual(
      areas.map(a => a.names),
      [['src/a'], ['src/b', 'src/c']],
    );
  });
});
