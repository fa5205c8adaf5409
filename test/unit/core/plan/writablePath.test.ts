import assert from 'node:assert/strict';
import {
  refusalMessage,
  refusedChanges,
  refusedWrites,
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

  describe('refusedWrites: the same rule, and no write through a symbolic link', () => {
    /** A disk whose links are `links`; it records every prefix it is asked about. */
    function disk(...links: string[]) {
      const asked: string[] = [];
      const isSymbolicLink = (prefix: string) => {
        asked.push(prefix);
        return Promise.resolve(links.includes(prefix));
      };
      return { asked, isSymbolicLink };
    }

    it('refuses a path whose first, middle or last part is a link, naming the outermost link', async () => {
      const cases: [link: string, path: string][] = [
        ['docs', 'docs/notes/hooks/pre-commit'],
        ['docs/notes', 'docs/notes/hooks/pre-commit'],
        ['docs/notes/hooks/pre-commit', 'docs/notes/hooks/pre-commit'],
      ];
      for (const [link, path] of cases)
        for (const kind of ['create', 'modify', 'delete'] as const)
          assert.deepEqual(
            await refusedWrites([{ kind, path }], disk(link).isSymbolicLink),
            [{ kind, path, reason: 'symbolic-link', link }],
            `${kind} ${path} with ${link} a link`,
          );
      // Two links on the way: the outer one is where the write leaves the workspace's own folders.
      assert.equal(
        (await refusedWrites([{ kind: 'create', path: 'a/b/c.md' }], disk('a/b', 'a').isSymbolicLink))[0]?.link,
        'a',
      );
    });

    it('asks about every prefix, from the outermost folder down to the file, and allows a path without links', async () => {
      const { asked, isSymbolicLink } = disk('src/other');
      assert.deepEqual(
        await refusedWrites([{ kind: 'create', path: 'docs/notes/hooks/pre-commit' }], isSymbolicLink),
        [],
      );
      assert.deepEqual(asked, ['docs', 'docs/notes', 'docs/notes/hooks', 'docs/notes/hooks/pre-commit']);
    });

    it('takes missing prefixes as no link (the port says false), so a new folder can be created', async () => {
      // A disk where nothing exists: every prefix answers false.
      assert.deepEqual(await refusedWrites([{ kind: 'create', path: 'new/deep/file.ts' }], disk().isSymbolicLink), []);
    });

    it('refuses by the path’s text first, without asking the disk about such a path', async () => {
      const { asked, isSymbolicLink } = disk('docs/notes');
      const refused = await refusedWrites(
        [
          { kind: 'modify', path: 'src/app.ts' },
          { kind: 'modify', path: '.git/config' },
          { kind: 'create', path: '../outside.ts' },
          { kind: 'create', path: 'docs/notes/hooks/pre-commit' },
        ],
        isSymbolicLink,
      );
      assert.deepEqual(refused, [
        { kind: 'modify', path: '.git/config', reason: 'git-state' },
        { kind: 'create', path: '../outside.ts', reason: 'outside-workspace' },
        { kind: 'create', path: 'docs/notes/hooks/pre-commit', reason: 'symbolic-link', link: 'docs/notes' },
      ]);
      assert.ok(!asked.some(prefix => prefix.startsWith('.git') || prefix.startsWith('..')), asked.join(', '));
    });

    it('says which part is a link and that Council never writes through one', async () => {
      const refused = await refusedWrites(
        [{ kind: 'create', path: 'docs/notes/hooks/pre-commit' }],
        disk('docs/notes').isSymbolicLink,
      );
      assert.equal(
        refusalMessage('T-4', refused, 'council plan'),
        'Nothing applied: the proposal for T-4 would create docs/notes/hooks/pre-commit (docs/notes is a symbolic link), and Council never writes through a symbolic link (it may lead anywhere, .git/ included). Apply the other changes by hand, or run council plan again.',
      );
    });
  });
});
