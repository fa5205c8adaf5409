import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../support/nodePersonaSource';

const NODE_BUILTINS = new Set(builtinModules.flatMap(m => [m, `node:${m}`]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier a file imports, re-exports or requires. */
function importsOf(text: string): string[] {
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return specifiers.map(m => m[1] ?? '');
}

describe('architecture', () => {
  // src/core runs in the web-worker extension host and in mocha: no vscode, no Node.
  for (const layer of ['src/core']) {
    it(`${layer} never imports vscode or a Node built-in`, () => {
      const offenders = sourceFiles(join(REPO_ROOT, layer)).flatMap(file =>
        importsOf(readFileSync(file, 'utf8'))
          .filter(spec => spec === 'vscode' || NODE_BUILTINS.has(spec))
          .map(spec => `${relative(REPO_ROOT, file)} imports ${spec}`),
      );
      assert.deepEqual(offenders, []);
    });
  }

  // The `council` command runs in plain Node: no vscode, nothing of the VS Code host folders.
  it('src/cli never imports vscode, src/vscode or src/node', () => {
    const offenders = sourceFiles(join(REPO_ROOT, 'src/cli')).flatMap(file =>
      importsOf(readFileSync(file, 'utf8'))
        .filter(spec => spec === 'vscode' || /^(\.\.\/)+(vscode|node)(\/|$)/.test(spec))
        .map(spec => `${relative(REPO_ROOT, file)} imports ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('dependencies in src/core follow the layer graph: each folder imports only the folders LAYERS names', async () => {
    // The graph lives in eslint.config.mjs (one place); this walks every import without ESLint's help.
    const { LAYERS } = (await import(join(REPO_ROOT, 'eslint.config.mjs'))) as { LAYERS: Record<string, string[]> };
    const core = join(REPO_ROOT, 'src/core');
    const folderOf = (path: string) => {
      const top = relative(core, path).split(/[\\/]/);
      return top.length > 1 ? (top[0] as string) : '.';
    };
    const offenders = sourceFiles(core).flatMap(file =>
      importsOf(readFileSync(file, 'utf8'))
        .filter(spec => spec.startsWith('.'))
        .flatMap(spec => {
          const target = join(file, '..', spec);
          if (!target.startsWith(core)) return [`${relative(REPO_ROOT, file)} imports ${spec}, outside src/core`];
          const [from, to] = [folderOf(file), folderOf(target)];
          if (from === to || to === '.') return [];
          const allowed = LAYERS[from];
          if (from === '.' || allowed === undefined || LAYERS[to] === undefined)
            return [`${relative(REPO_ROOT, file)}: ${from} -> ${to} is not in the layer graph`];
          return allowed.includes(to) ? [] : [`${relative(REPO_ROOT, file)} (${from}) imports ${spec} (${to})`];
        }),
    );
    assert.deepEqual(offenders, []);
  });

  it('the layer graph has no cycle', async () => {
    const { LAYERS } = (await import(join(REPO_ROOT, 'eslint.config.mjs'))) as { LAYERS: Record<string, string[]> };
    const order = Object.keys(LAYERS);
    for (const [layer, allowed] of Object.entries(LAYERS))
      for (const below of allowed)
        assert.ok(order.indexOf(below) < order.indexOf(layer), `${layer} -> ${below} points up the listed order`);
  });

  it('the import scanner sees the forms it must catch', () => {
    const sample = `import * as vscode from 'vscode';\nexport { x } from "node:fs";\nconst p = require('path');\nimport 'os';`;
    assert.deepEqual([...importsOf(sample)].sort(), ['node:fs', 'os', 'path', 'vscode']);
  });

  it('exactly one copy of @vscode/prompt-tsx is installed', () => {
    // The lockfile lists every installed package by its folder: two folders would be two copies.
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const copies = Object.keys(lock.packages).filter(folder => folder.endsWith('node_modules/@vscode/prompt-tsx'));
    assert.deepEqual(copies, ['node_modules/@vscode/prompt-tsx']);
  });
});
