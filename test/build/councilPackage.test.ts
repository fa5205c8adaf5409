import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCouncilCli } from '../support/buildCouncilCli';
import { REPO_ROOT } from '../support/nodePersonaSource';

/*
 * What `npm publish` would ship: the `council` command (package.json's bin) and what it reads at run time, nothing of
 * the VS Code extension; and the .vsix (vsce's list) still without the command. The packed package is unpacked and
 * run in an empty folder, so a file the command needs and the package lacks fails here.
 */

interface PackedFile {
  readonly path: string;
  readonly size: number;
}

/** What the command reads besides its bundle, from the package root. */
const RUNTIME_FILES = ['dist/quickjs.wasm', 'schemas/council-config.schema.json'];

/** Files npm adds to any package, whatever its allowlist says. */
const ALWAYS = /^(package\.json|README\.md|(?:[^/]+\/)*README\.md|CHANGELOG\.md|LICENSE)$/;

function npm(args: readonly string[], cwd = REPO_ROOT): string {
  // No prepack or prepublish script: the test packs the bundle it built.
  return execFileSync('npm', [...args, '--ignore-scripts'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the published package: the council command and what it needs, not the extension', function () {
  this.timeout(120_000);
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    readonly bin: Readonly<Record<string, string>>;
    readonly engines: Readonly<Record<string, string>>;
  };
  const bin = (manifest.bin.council ?? '').replace(/^\.\//, '');
  const builtIn = (folder: string, extension: string) =>
    readdirSync(join(REPO_ROOT, folder))
      .filter(name => name.endsWith(extension))
      .map(name => `${folder}/${name}`);
  let packed: PackedFile[];

  before(() => {
    buildCouncilCli();
    const [pack] = JSON.parse(npm(['pack', '--dry-run', '--json'])) as { files: PackedFile[]; size: number }[];
    packed = pack?.files ?? [];
    console.log(`      (${packed.length} files, ${((pack?.size ?? 0) / 1024).toFixed(0)} KiB packed)`);
  });

  it('holds the bin target, the personas and workflows the command reads, its engine and its config schema', () => {
    assert.equal(bin, 'dist/cli/council.js');
    assert.match(manifest.engines.node ?? '', />=\s*20/, 'the command needs Node 20 or later');
    const paths = new Set(packed.map(file => file.path));
    const needed = [bin, ...RUNTIME_FILES, ...builtIn('personas', '.md'), ...builtIn('workflows', '.yaml')];
    assert.deepEqual(
      needed.filter(path => !paths.has(path)),
      [],
      'every file the command reads is in the package',
    );
    assert.ok(needed.length > 10);
  });

  it('leaves out the VS Code extension, the sources and the tests', () => {
    const allowed = (path: string) =>
      ALWAYS.test(path) ||
      path === bin ||
      RUNTIME_FILES.includes(path) ||
      /^personas\/[^/]+\.md$/.test(path) ||
      /^workflows\/[^/]+\.yaml$/.test(path);
    assert.deepEqual(
      packed.map(file => file.path).filter(path => !allowed(path)),
      [],
    );
  });

  it('runs from the unpacked package in an empty folder: the demo council and the built-in workflow list', () => {
    const work = mkdtempSync(join(tmpdir(), 'council-package-'));
    try {
      npm(['pack', '--pack-destination', work]);
      const tarball = readdirSync(work).find(name => name.endsWith('.tgz'));
      assert.ok(tarball, 'npm pack wrote the tarball');
      execFileSync('tar', ['-xzf', join(work, tarball)], { cwd: work });
      const project = join(work, 'project');
      mkdirSync(project);
      const council = (args: readonly string[]) =>
        execFileSync(process.execPath, [join(work, 'package', bin), ...args], {
          cwd: project,
          env: { PATH: process.env.PATH ?? '', HOME: project },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const result = JSON.parse(council(['ask', '--demo', '--yes', '--json'])) as {
        state: string;
        council: string[];
      };
      assert.equal(result.state, 'completed');
      assert.ok(result.council.length >= 2, 'the built-in personas were found in the package');
      assert.match(council(['workflow']), /plan: .*built-in workflows\/plan\.yaml/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("keeps the vsix without the command: vsce's list has the personas, not dist/cli or the sources", () => {
    const listed = execFileSync(join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    assert.ok(listed.includes('personas/security-expert.md'), listed.join(', '));
    assert.deepEqual(
      listed.filter(path => /^(dist\/cli|dist\/plugin|dist\/test|src|test|node_modules|scripts|bench)\//.test(path)),
      [],
    );
    assert.ok(!listed.includes('.npmignore'));
  });
});
