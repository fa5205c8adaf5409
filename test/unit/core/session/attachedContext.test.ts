import assert from 'node:assert/strict';
import {
  boundAttachments,
  mergeAttachments,
  rebound,
  type RawAttachment,
} from '../../../../src/core/session/attachedContext';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { readStoredSession } from '../../../../src/core/session/storedSession';

const budget = { perItemChars: 100, totalChars: 250 };
const lines = (count: number, tag: string): string =>
  Array.from({ length: count }, (_, i) => `${tag} line ${i}`).join('\n');

describe('attached context budget', () => {
  it('keeps a small file whole, without a note', () => {
    const [item] = boundAttachments([{ label: 'src/a.ts', kind: 'file', text: 'const a = 1;' }], budget);
    assert.deepEqual(item, { label: 'src/a.ts', kind: 'file', content: 'const a = 1;' });
  });

  it('cuts a too-large file at a line end and says how much was kept and why', () => {
    const text = lines(40, 'big');
    const [item] = boundAttachments([{ label: 'big.txt', kind: 'file', text }], budget);
    assert.ok(item?.content !== undefined && item.content.length <= 100 && item.content.length > 50);
    assert.ok(text.startsWith(item.content) && !item.content.endsWith('\n'), 'a prefix ending at a line end');
    assert.match(
      item.note ?? '',
      new RegExp(
        `Cut to the first ${item.content.length} of ${text.length} characters to fit the 100-character limit per item`,
      ),
    );
  });

  it('names a binary file without its content', () => {
    const [item] = boundAttachments([{ label: 'logo.png', kind: 'file', binary: true }], budget);
    assert.equal(item?.content, undefined);
    assert.match(item?.note ?? '', /Binary file: named only/);
  });

  it('marks a file outside the workspace but includes it, since the user attached it', () => {
    const [item] = boundAttachments(
      [{ label: '/etc/hosts', kind: 'file', text: '127.0.0.1 localhost', outsideWorkspace: true }],
      budget,
    );
    assert.equal(item?.content, '127.0.0.1 localhost');
    assert.match(item?.note ?? '', /Outside the workspace folder; included because the user attached it explicitly/);
  });

  it('turns an unreadable file or a failing tool into a note, never a failure', () => {
    const items = boundAttachments(
      [
        { label: 'gone.ts', kind: 'file', unreadable: 'EntryNotFound' },
        { label: '#fetch', kind: 'tool', unreadable: 'the tool failed: offline' },
      ],
      budget,
    );
    assert.deepEqual(
      items.map(i => [i.content, i.note]),
      [
        [undefined, 'Could not be read (EntryNotFound); not included.'],
        [undefined, 'Could not be read (the tool failed: offline); not included.'],
      ],
    );
  });

  it('shares the total budget among several files in order, and says when it ran out', () => {
    const raw: RawAttachment[] = ['a', 'b', 'c', 'd'].map(tag => ({
      label: `${tag}.txt`,
      kind: 'file',
      text: lines(20, tag),
    }));
    const items = boundAttachments(raw, budget);
    const total = items.reduce((sum, i) => sum + (i.content?.length ?? 0), 0);
    assert.ok(total <= 250, `total ${total} within the budget`);
    assert.match(items[0]?.note ?? '', /limit per item/);
    assert.match(items[2]?.note ?? '', /250-character budget for attached context/);
    assert.equal(items[3]?.content, undefined);
    assert.match(items[3]?.note ?? '', /Not included: the 250-character budget for attached context was used up/);
  });

  it('tightens already bounded items for persona selection, keeping their notes', () => {
    const [item] = rebound(
      [{ label: 'x.ts', kind: 'file', content: lines(30, 'x'), note: 'Outside the workspace folder.' }],
      { perItemChars: 40, totalChars: 40 },
    );
    assert.ok((item?.content?.length ?? 0) <= 40);
    assert.match(item?.note ?? '', /^Outside the workspace folder\. Cut to the first/);
  });

  it('merges attachments of a later turn without duplicates; the first copy wins', () => {
    const merged = mergeAttachments(
      [{ label: 'a.ts', kind: 'file', content: 'old' }],
      [
        { label: 'a.ts', kind: 'file', content: 'new' },
        { label: 'a.ts:3-4', kind: 'selection', content: 'x' },
      ],
    );
    assert.deepEqual(
      merged.map(i => [i.label, i.content]),
      [
        ['a.ts', 'old'],
        ['a.ts:3-4', 'x'],
      ],
    );
  });

  it('persists with the session: a restored session and its snapshot still carry them, a later turn adds to them', () => {
    const input = {
      sessionId: 's1',
      userId: 'u',
      requestText: 'Review this',
      createdAt: '2026-01-01T00:00:00.000Z',
      attached: [{ label: 'a.ts', kind: 'file' as const, content: 'A' }],
    };
    const log = SessionLog.start(input);
    assert.equal(
      log.attach([
        { label: 'b.ts', kind: 'file', content: 'B' },
        { label: 'a.ts', kind: 'file', content: 'again' },
      ]),
      1,
    );
    const restored = SessionLog.restore(JSON.parse(JSON.stringify(log.stored)));
    assert.deepEqual(
      restored.attached.map(i => i.content),
      ['A', 'B'],
    );
    assert.deepEqual(
      restored.snapshot.context.attached?.map(i => i.label),
      ['a.ts', 'b.ts'],
    );
  });

  it('reads a stored session written before attachments existed', () => {
    const stored = SessionLog.start({
      sessionId: 's2',
      userId: 'u',
      requestText: 'Old',
      createdAt: '2026-01-01T00:00:00.000Z',
    }).stored;
    const read = readStoredSession(JSON.parse(JSON.stringify(stored)));
    assert.equal(read.kind, 'current');
    assert.equal(SessionLog.restore(stored).attached.length, 0);
    assert.equal('attached' in SessionLog.restore(stored).snapshot.context, false);
  });
});
