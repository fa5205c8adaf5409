import assert from 'node:assert/strict';
import {
  refusalMessage,
  refusedChanges,
  unwritableReason,
  type UnwritableReason,
} from '../../../../src/core/plan/writablePath';

describe('writablePath: which proposed paths Council may write', () => {
  it('refuses Git’s state, in any case and in any folder of the path', () => {
    const refused: Record<string, UnwritableReason> = {
      '.git/config': 'git-state',
      '.git/hooks/pre-commit': 'git-state',
      '.GIT/config': 'git-state',
      '.Git/hooks/post-checkout': 'git-state',
      // A multi-root workspace's path starts with its folder; a nested repository has its own .git.
      'backend/.git/config': 'git-state',
      // `.git` itself: a worktree's pointer file.
      '.git': 'git-state',
      // What Windows reads as .git: trailing dots and spaces dropped, an NTFS stream, the 8.3 short name.
      '.git./config': 'git-state',
      '.git::$INDEX_ALLOCATION/config': 'git-state',
      'GIT~1/config': 'git-state',
    };
    for (const [path, reason] of Object.entries(refused)) assert.equal(unwritableReason(path), reason, path);
  });

  it('refuses Council’s own state, in any case', () => {
    for (const path of [
      '.council/runs/notes.md',
      '.Council/config.json',
      '.COUNCIL/workflows/x.yaml',
      'app/.council/x',
    ])
      assert.equal(unwritableReason(path), 'council-state', path);
  });

  it('refuses a path that is not plainly inside the workspace', () => {
    for (const path of [
      '',
      '   ',
      '/etc/passwd',
      '../outside.ts',
      'src/../../outside.ts',
      'C:/Windows/win.ini',
      'c:evil.ts',
      'src\\..\\..\\outside.ts',
      '..\\outside.ts',
      '~/.bashrc',
      'file:///etc/passwd',
    ])
      assert.equal(unwritableReason(path), 'outside-workspace', JSON.stringify(path));
  });

  it('allows ordinary files, including those whose names only start like .git or .council', () => {
    for (const path of [
      'src/app.ts',
      'src/.gitignore',
      '.gitignore',
      '.gitattributes',
      '.github/workflows/ci.yml',
      'docs/council.md',
      '.councilrc',
      'docs/.git-notes/x.md',
      'src/git/config.ts',
    ])
      assert.equal(unwritableReason(path), undefined, path);
  });

  it('lists a proposal’s refused changes in order, and says what Apply does instead', () => {
    const changes = [
      { kind: 'modify', path: 'src/app.ts' },
      { kind: 'modify', path: '.git/hooks/pre-commit' },
      { kind: 'create', path: '.council/notes.md' },
    ] as const;
    const refused = refusedChanges(changes);
    assert.deepEqual(refused, [
      { kind: 'modify', path: '.git/hooks/pre-commit', reason: 'git-state' },
      { kind: 'create', path: '.council/notes.md', reason: 'council-state' },
    ]);
    assert.equal(
      refusalMessage('T-3', refused, '/plan'),
      "Nothing applied: the proposal for T-3 would modify .git/hooks/pre-commit and create .council/notes.md, and Council never writes Git's own state (.git/) or its own state (.council/). Apply the other changes by hand, or run /plan again.",
    );
    assert.deepEqual(refusedChanges([{ kind: 'delete', path: 'docs/old.md' }]), []);
  });

  it('shows an empty path quoted, so the message still names it', () => {
    assert.match(refusalMessage('T-1', refusedChanges([{ kind: 'create', path: '' }]), 'council plan'), /create "",/);
  });
});
