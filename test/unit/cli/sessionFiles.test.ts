import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionFiles, unusableMessage } from '../../../src/cli/sessionFiles';
import { STORED_SESSION_VERSION } from '../../../src/core/session/storedSession';

describe('council session files: a damaged file is kept aside, never overwritten', () => {
  let project: string;
  let folder: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'council-files-'));
    folder = join(project, '.council', 'sessions');
    await mkdir(folder, { recursive: true });
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  it('moves a file that does not parse aside, byte for byte, and says where', async () => {
    await writeFile(join(folder, 's1.json'), 'not json at all');
    const found = await new SessionFiles(project).read('s1');
    assert.equal(found.kind, 'damaged');
    if (found.kind !== 'damaged') return;
    assert.ok(found.keptAs.startsWith(join(folder, 's1.json.damaged-')), found.keptAs);
    assert.equal(await readFile(found.keptAs, 'utf8'), 'not json at all');
    assert.deepEqual(
      (await readdir(folder)).filter(name => name === 's1.json'),
      [],
      'a later save of s1 cannot overwrite it',
    );
    assert.match(unusableMessage(found), /s1 is damaged .*kept aside as .*s1\.json\.damaged-.*nothing was overwritten/);
    assert.deepEqual(
      await new SessionFiles(project).read('s1'),
      { kind: 'missing', sessionId: 's1' },
      'the id is free',
    );
  });

  it('a second damaged file of the same id gets its own name beside the first', async () => {
    const files = new SessionFiles(project);
    await writeFile(join(folder, 's2.json'), '{');
    const first = await files.read('s2');
    await writeFile(join(folder, 's2.json'), '[');
    const second = await files.read('s2');
    assert.ok(first.kind === 'damaged' && second.kind === 'damaged');
    assert.notEqual(first.keptAs, second.keptAs);
    assert.equal(await readFile(first.keptAs, 'utf8'), '{');
    assert.equal(await readFile(second.keptAs, 'utf8'), '[');
  });

  it("leaves a newer Council's session where that version looks for it", async () => {
    await writeFile(join(folder, 's3.json'), JSON.stringify({ version: STORED_SESSION_VERSION + 1, events: [] }));
    const found = await new SessionFiles(project).read('s3');
    assert.ok(found.kind === 'newer');
    assert.match(unusableMessage(found), /s3 was saved by a newer version of Council.*update Council.*left as it is/);
    assert.deepEqual(await readdir(folder), ['s3.json']);
  });

  it('a session never saved, or an id that is not one, is missing (the one word every door uses)', async () => {
    const files = new SessionFiles(project);
    assert.equal((await files.read('nope')).kind, 'missing');
    assert.equal((await files.read('../etc/passwd')).kind, 'missing');
  });
});
