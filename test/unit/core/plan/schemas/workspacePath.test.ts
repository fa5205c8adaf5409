import { strict as assert } from 'node:assert';
import { workspacePath, workspacePathProblem } from '../../../../../src/core/plan/schemas/common';

describe('workspace-relative paths', () => {
  const accepted = ['src/main.ts', 'README.md', '.github/workflows/ci.yml', 'a/b..c/d.ts', 'docs/.well-known/x'];
  for (const path of accepted) {
    it(`accepts ${path}`, () => assert.equal(workspacePathProblem(path), undefined));
  }

  const rejected: readonly (readonly [string, RegExp])[] = [
    ['', /blank/],
    [' src/a.ts', /whitespace/],
    ['/etc/passwd', /absolute/],
    ['~/secrets', /absolute/],
    ['C:/Users/me/a.ts', /drive or URI/],
    ['file:///tmp/a.ts', /drive or URI/],
    ['src\\main.ts', /separator/],
    ['../outside.ts', /"\.\."/],
    ['src/../../outside.ts', /"\.\."/],
    ['./src/a.ts', /"\."/],
    ['src//a.ts', /empty segments/],
    ['src/', /empty segments/],
  ];
  for (const [path, reason] of rejected) {
    it(`rejects ${JSON.stringify(path)}`, () => assert.match(workspacePathProblem(path) ?? 'accepted', reason));
  }

  it('the schema reports the offending path', () => {
    const result = workspacePath('A file.').safeParse('../x.ts');
    assert.equal(result.success, false);
    assert.match(result.error?.issues[0]?.message ?? '', /path "\.\.\/x\.ts" must not contain "\.\." segments/);
  });
});
