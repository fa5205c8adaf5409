import assert from 'node:assert/strict';
import { parseRecord, isRecord } from '../../../../src/core/decisions/decisionRecord';
import { findRecordFolder } from '../../../../src/core/decisions/recordFolder';
import { readCatalog } from '../../../../src/core/decisions/recordCatalog';
import { nextRecordName } from '../../../../src/core/decisions/recordNaming';
import { renderRecord, titleFor } from '../../../../src/core/decisions/renderRecord';
import { markSuperseded } from '../../../../src/core/decisions/supersede';
import { findPrecedent, precedentPrompt } from '../../../../src/core/decisions/precedent';
import type { DecisionInput } from '../../../../src/core/decisions/decisionInput';
import { memoryReader } from './memoryReader';

const nygardRecord = (n: number, title: string, status: string, context: string): string =>
  `# ${n}. ${title}\n\nDate: 2025-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\n${context}\n\n## Decision\n\nWe will do it.\n\n## Consequences\n\nSome.\n`;
const madrRecord = (title: string, status: string, context: string): string =>
  `---\nstatus: ${status}\ndate: 2025-02-01\n---\n\n# ${title}\n\n## Context and Problem Statement\n\n${context}\n\n## Decision Outcome\n\nChosen option: it.\n`;

const decision: DecisionInput = {
  question: 'Which database should store the event log?',
  answered: [{ question: 'Expected write volume?', answer: 'About 2,000 events per second.' }],
  options: [
    {
      name: 'PostgreSQL',
      pros: [{ persona: 'Architect', text: 'the team already runs it' }],
      cons: [{ persona: 'Skeptic', text: 'partitioning needs care' }],
    },
    {
      name: 'Kafka',
      pros: [{ persona: 'Skeptic', text: 'it is built for logs' }],
      cons: [{ persona: 'Architect', text: 'one more system to operate' }],
    },
  ],
  chosen: 'Use PostgreSQL for the event log',
  answer: 'PostgreSQL with monthly partitions meets the load.',
  vote: '2 of 3 for PostgreSQL',
  confidence: 0.72,
  consequences: ['Partitions must be created monthly.'],
  dissent: { persona: 'Skeptic', text: 'At 10x growth this will hurt.\nWe will regret it.' },
  assumptions: ['Write volume stays under 5,000 events per second'],
  sessionId: 's-123',
  personas: ['Architect', 'Skeptic', 'Pragmatist'],
  model: 'scripted',
  cost: '7 requests, 12,400 tokens',
};

describe('core/decisions', () => {
  describe('finding the folder and format', () => {
    it('adr-tools: .adr-dir names the folder, and its records are Nygard', async () => {
      const reader = memoryReader({
        '.adr-dir': 'architecture/decisions\n',
        'architecture/decisions/0001-record-architecture-decisions.md': nygardRecord(
          1,
          'Record architecture decisions',
          'Accepted',
          'We need records.',
        ),
      });
      assert.deepEqual(await findRecordFolder(reader), {
        folder: 'architecture/decisions',
        format: 'nygard',
        source: '.adr-dir',
      });
    });
    it('adr-tools default doc/adr without .adr-dir is Nygard', async () => {
      const reader = memoryReader({ 'doc/adr/0001-x.md': nygardRecord(1, 'X', 'Accepted', 'c') });
      assert.deepEqual(await findRecordFolder(reader), {
        folder: 'doc/adr',
        format: 'nygard',
        source: 'existing folder',
      });
    });
    it('log4brains docs/adr with a MADR template is MADR', async () => {
      const reader = memoryReader({
        'docs/adr/template.md': madrRecord('[short title]', 'draft', '[context]'),
        'docs/adr/20240101-use-react.md': madrRecord('Use React', 'accepted', 'UI'),
      });
      assert.deepEqual(await findRecordFolder(reader), {
        folder: 'docs/adr',
        format: 'madr',
        source: 'existing folder',
      });
    });
    it('an empty repository gets MADR in docs/decisions; a setting overrides', async () => {
      const reader = memoryReader({ 'README.md': '# hi' });
      assert.deepEqual(await findRecordFolder(reader), { folder: 'docs/decisions', format: 'madr', source: 'default' });
      assert.equal((await findRecordFolder(reader, './adr/')).folder, 'adr');
    });
  });

  describe('reading records', () => {
    it('names a malformed record and skips it, keeping the rest', async () => {
      const reader = memoryReader({
        'doc/adr/0001-a.md': nygardRecord(1, 'A', 'Accepted', 'c'),
        'doc/adr/0002-broken.md': 'just some notes, no title\n',
        'doc/adr/0003-no-status.md': '# 3. No status\n\n## Context\n\nx\n',
        'doc/adr/README.md': '# index',
      });
      const catalog = await readCatalog(reader, 'doc/adr');
      assert.deepEqual(
        catalog.records.map(r => [r.number, r.status]),
        [[1, 'accepted']],
      );
      assert.deepEqual(
        catalog.malformed.map(m => m.path),
        ['doc/adr/0002-broken.md', 'doc/adr/0003-no-status.md'],
      );
      assert.match(catalog.malformed[1]?.reason ?? '', /no status/);
    });
    it('reads MADR front matter status and date', () => {
      const parsed = parseRecord('docs/decisions/0004-use-react.md', madrRecord('Use React', 'accepted', 'UI'));
      assert.ok(isRecord(parsed));
      assert.equal(parsed.status, 'accepted');
      assert.equal(parsed.date, '2025-02-01');
      assert.equal(parsed.title, 'Use React');
    });
  });

  describe('numbering', () => {
    it('takes one past the highest number and never an existing name', () => {
      assert.deepEqual(nextRecordName(['0001-a.md', '0007-b.md', 'template.md'], 'Use PostgreSQL!'), {
        number: 8,
        name: '0008-use-postgresql.md',
      });
      assert.deepEqual(nextRecordName([], 'X'), { number: 1, name: '0001-x.md' });
      assert.equal(nextRecordName(['0001-a.md', '0002-use-x.md'], 'Use X').name, '0003-use-x.md');
    });
  });

  describe('rendering', () => {
    it('MADR: proposed, dated, the vote, dissent verbatim, assumptions to be verified, more information', () => {
      const text = renderRecord({ number: 8, title: titleFor(decision), date: '2026-11-28', format: 'madr', decision });
      assert.match(text, /^---\nstatus: proposed\ndate: 2026-11-28\n---/);
      assert.match(text, /# Use PostgreSQL for the event log/);
      assert.match(text, /Expected write volume\?\*\* About 2,000/);
      assert.match(text, /2 of 3 for PostgreSQL \(combined confidence 72%\)/);
      assert.match(text, /> At 10x growth this will hurt.\n> We will regret it./);
      assert.match(text, /Write volume stays under 5,000 events per second \(to be verified\)/);
      assert.match(text, /Bad, because one more system to operate \(Architect\)/);
      assert.match(text, /Council session: s-123/);
      const parsed = parseRecord('docs/decisions/0008-x.md', text);
      assert.ok(isRecord(parsed) && parsed.status === 'proposed');
    });
    it('Nygard: numbered title and a Status section that reads back as proposed', () => {
      const text = renderRecord({ number: 2, title: 'Use PostgreSQL', date: '2026-11-28', format: 'nygard', decision });
      assert.match(text, /^# 2\. Use PostgreSQL\n\nDate: 2026-11-28\n\n## Status\n\nProposed/);
      const parsed = parseRecord('doc/adr/0002-use-postgresql.md', text);
      assert.ok(isRecord(parsed) && parsed.status === 'proposed' && parsed.title === 'Use PostgreSQL');
    });
  });

  describe('supersede', () => {
    it('updates both records: the new one says it supersedes, the old one reads superseded', () => {
      const old = nygardRecord(1, 'Use MongoDB for events', 'Accepted', 'Events.');
      const marked = markSuperseded(old, 'nygard', 2, 'Use PostgreSQL', '0002-use-postgresql.md');
      assert.ok(marked);
      const parsedOld = parseRecord('doc/adr/0001-use-mongodb-for-events.md', marked);
      assert.ok(isRecord(parsedOld) && parsedOld.status === 'superseded');
      const fresh = renderRecord({
        number: 2,
        title: 'Use PostgreSQL',
        date: '2026-11-28',
        format: 'nygard',
        decision,
        supersedes: { number: 1, title: 'Use MongoDB for events', name: '0001-use-mongodb-for-events.md' },
      });
      assert.match(fresh, /Supersedes \[1\. Use MongoDB for events\]\(0001-use-mongodb-for-events\.md\)/);
      const madrOld = markSuperseded(
        madrRecord('Use Mongo', 'accepted', 'x'),
        'madr',
        2,
        'Use PostgreSQL',
        '0002-use-postgresql.md',
      );
      assert.match(madrOld ?? '', /^status: superseded by 0002-use-postgresql.md$/m);
    });
  });

  describe('precedent', () => {
    const records = [1, 2, 3].map(n => {
      const contexts = [
        'We need a database for the event log; write volume is high and events are append-only.',
        'The front end needs a component framework for the admin screens.',
        'Continuous integration must run on every pull request.',
      ];
      const titles = ['Use MongoDB for the event log', 'Use React for admin screens', 'Run CI on GitHub Actions'];
      const parsed = parseRecord(
        `doc/adr/000${n}-r.md`,
        nygardRecord(n, titles[n - 1] ?? '', 'Accepted', contexts[n - 1] ?? ''),
      );
      assert.ok(isRecord(parsed));
      return parsed;
    });
    it('finds the related record and not the unrelated ones', () => {
      const found = findPrecedent('Which database should store our event log?', records);
      assert.deepEqual(
        found.map(p => p.record.number),
        [1],
      );
    });
    it('finds nothing for an unrelated question', () => {
      assert.deepEqual(
        findPrecedent('How should we name our log files on disk for the mobile app?', records).map(
          p => p.record.number,
        ),
        [],
      );
    });
    it("in a folder of one or two records, a record that shares three of the question's words still bears on it", () => {
      const few = records.slice(0, 1);
      assert.deepEqual(
        findPrecedent('Which database should store our event log?', few).map(p => p.record.number),
        [1],
        'BM25 alone scores every word of a one-record folder low',
      );
      assert.deepEqual(findPrecedent('Which React version for admin?', few), [], 'one shared word is not enough');
    });
    it('fences records as data within the token budget', () => {
      const prompt = precedentPrompt(findPrecedent('database for the event log', records), 200);
      assert.match(prompt, /<untrusted-data source="adr-1">/);
      assert.ok(prompt.length <= 200 * 4);
      assert.equal(precedentPrompt([]), '');
    });
  });
});
