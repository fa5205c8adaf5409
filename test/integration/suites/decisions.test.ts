import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture, newChat, sendChat, workspaceUri } from '../harness';
import { playCouncil } from '../councilPlay';
import type { CouncilApi } from '../../../src/extension';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { councilFollowups } from '../../../src/vscode/chat/followups';
import { SessionLog } from '../../../src/core/council/sessionLog';
import { decisionOfSession } from '../../../src/core/council/sessionDecision';
import type { RecordDecisionResult } from '../../../src/vscode/decisions/recordDecision';

const FOLDER = 'docs/decisions';

async function session(result: vscode.ChatResult): Promise<SessionLog> {
  const id = (result.metadata as CouncilResultMetadata | undefined)?.sessionId;
  assert.ok(id, 'the result names its session');
  const saved = ((await councilExtension()).exports as CouncilApi).store.load(id as string);
  assert.ok(saved?.ok, 'the session is in workspace storage');
  return SessionLog.restore(saved?.ok ? saved.stored : undefined);
}

async function recordFiles(): Promise<string[]> {
  const entries = await vscode.workspace.fs.readDirectory(workspaceUri(FOLDER)).then(
    e => e,
    () => [] as [string, vscode.FileType][],
  );
  return entries.map(([name]) => name).sort();
}

describe('decisions that last: a council answer as a record, and records as precedent', () => {
  before(async () => {
    await vscode.workspace.fs.delete(workspaceUri(FOLDER), { recursive: true }).then(undefined, () => undefined);
  });
  after(async () => {
    await vscode.workspace.fs.delete(workspaceUri(FOLDER), { recursive: true }).then(undefined, () => undefined);
  });

  it('a completed council offers Record this decision; the record is written only once confirmed, never over another', async () => {
    await newChat();
    playCouncil(await fixture(), { questions: 0, convergeAtCycle: 'never', decisionOptions: true, dissenters: 1 });
    const result = await sendChat('@council /debate Signed cookies or server-side sessions in Redis for logins?');
    assert.ok(
      councilFollowups(result).some(f => f.label === 'Record this decision'),
      'the button is among the next steps',
    );
    const log = await session(result);
    assert.equal(log.state, 'completed');
    const decision = decisionOfSession(log.snapshot, { model: 'Council Test Model', cost: '9 requests' });
    assert.ok(decision);

    const declined = await vscode.commands.executeCommand<RecordDecisionResult>('council.recordDecision', {
      decision,
      confirmed: false,
    });
    assert.equal(declined.written, false);
    assert.match(declined.message, /Nothing written/);
    assert.deepEqual(await recordFiles(), [], 'nothing written without confirmation');

    const written = await vscode.commands.executeCommand<RecordDecisionResult>('council.recordDecision', {
      decision,
      confirmed: true,
      date: '2026-11-29',
    });
    assert.equal(written.written, true, written.message);
    const files = await recordFiles();
    assert.equal(files.length, 1);
    assert.match(files[0] ?? '', /^0001-.+\.md$/);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(`${FOLDER}/${files[0]}`)));
    assert.match(text, /proposed/);
    assert.match(text, /2026-11-29/);
    assert.match(text, /server-side sessions in Redis/);
    assert.ok(decision.dissent && text.includes(decision.dissent.text.split('\n')[0] ?? '?'), 'the dissent, verbatim');
    assert.ok(text.includes(log.sessionId), 'the session is named');

    const again = await vscode.commands.executeCommand<RecordDecisionResult>('council.recordDecision', {
      decision,
      confirmed: true,
      date: '2026-11-29',
    });
    assert.equal(again.written, true);
    assert.equal((await recordFiles()).length, 2, 'the next free number, the first record untouched');
    assert.match((await recordFiles())[1] ?? '', /^0002-/);
  });

  it('the next council on a related question is given the record as precedent, and its answer names it', async () => {
    await newChat();
    playCouncil(await fixture(), { questions: 0, convergeAtCycle: 2 });
    const result = await sendChat('@council /debate Should login sessions live in Redis or in signed cookies?');
    const log = await session(result);
    assert.equal(log.state, 'completed', JSON.stringify(result.errorDetails ?? {}));
    const precedent = log.snapshot.context.precedent;
    assert.ok(precedent && precedent.records.length > 0, 'records found as the session opened');
    assert.ok(precedent.records.every(r => r.path.startsWith(`${FOLDER}/`)));
    assert.match(precedent.prompt, /server-side sessions in Redis/i);
    assert.match(log.snapshot.context.finalAnswer ?? '', /Earlier decisions considered/);
  });

  describe('the folder and format found from how the repository keeps its records', () => {
    let decision: NonNullable<ReturnType<typeof decisionOfSession>>;
    const write = (path: string, text: string) =>
      vscode.workspace.fs.writeFile(workspaceUri(path), new TextEncoder().encode(text));
    const read = async (path: string) =>
      new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(path)));
    const names = async (folder: string) =>
      (await vscode.workspace.fs.readDirectory(workspaceUri(folder))).map(([name]) => name).sort();
    const remove = (path: string) =>
      vscode.workspace.fs.delete(workspaceUri(path), { recursive: true }).then(undefined, () => undefined);
    const record = (args: object) =>
      vscode.commands.executeCommand<RecordDecisionResult>('council.recordDecision', {
        decision,
        confirmed: true,
        date: '2026-11-29',
        ...args,
      });

    before(async () => {
      await newChat();
      playCouncil(await fixture(), { questions: 0, convergeAtCycle: 1, decisionOptions: true });
      const result = await sendChat('@council /debate Which message broker should the order service use?');
      const made = decisionOfSession((await session(result)).snapshot, {
        model: 'Council Test Model',
        cost: '5 requests',
      });
      assert.ok(made);
      decision = made;
    });
    afterEach(async () => {
      for (const path of ['.adr-dir', 'doc', 'docs/adr', FOLDER]) await remove(path);
    });

    it('adr-tools: .adr-dir names the folder; Nygard; numbered after the existing records; a malformed file skipped', async () => {
      await write('.adr-dir', 'doc/architecture/decisions\n');
      await write(
        'doc/architecture/decisions/0001-record-architecture-decisions.md',
        '# 1. Record architecture decisions\n\nDate: 2025-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe record decisions.\n\n## Decision\n\nWe use ADRs.\n',
      );
      await write('doc/architecture/decisions/0002-notes.md', 'just some notes, no title\n');
      const written = await record({});
      assert.equal(written.written, true, written.message);
      assert.match(
        written.path ?? '',
        /^doc\/architecture\/decisions\/0003-.+\.md$/,
        'after the highest number in use',
      );
      const text = await read(written.path ?? '');
      assert.match(text, /^# 3\. /);
      assert.match(text, /## Status\n\nProposed/);
      assert.doesNotMatch(text, /^---/, 'no MADR front matter in a Nygard folder');
      assert.equal(await read('doc/architecture/decisions/0002-notes.md'), 'just some notes, no title\n');
    });

    it('log4brains: docs/adr with a MADR template gives MADR', async () => {
      await write(
        'docs/adr/template.md',
        '---\nstatus: proposed\ndate: YYYY-MM-DD\n---\n# Title\n\n## Context and Problem Statement\n\n## Decision Outcome\n',
      );
      const written = await record({});
      assert.match(written.path ?? '', /^docs\/adr\/0001-.+\.md$/);
      const text = await read(written.path ?? '');
      assert.match(text, /^---\nstatus: proposed\ndate: 2026-11-29/);
      assert.match(text, /## Context and Problem Statement/);
    });

    it('supersede: the accepted record it goes against reads superseded, and the new one says it supersedes it', async () => {
      const old = `${FOLDER}/0001-use-rabbitmq.md`;
      await write(
        old,
        '---\nstatus: accepted\ndate: 2025-05-01\n---\n# Use RabbitMQ\n\n## Context and Problem Statement\n\nOrders need a broker.\n',
      );
      const written = await record({ supersedes: old });
      assert.equal(written.written, true, written.message);
      assert.match(await read(old), /^status: superseded by 0002-/m);
      assert.match(await read(written.path ?? ''), /0001-use-rabbitmq\.md/);
      assert.deepEqual((await names(FOLDER)).length, 2);
    });

    it('precedent: none for a question the records do not bear on', async () => {
      await write(
        `${FOLDER}/0001-use-rabbitmq.md`,
        '---\nstatus: accepted\n---\n# Use RabbitMQ for order events\n\nOrders need a broker.\n',
      );
      await newChat();
      playCouncil(await fixture(), { questions: 0, convergeAtCycle: 1 });
      const result = await sendChat('@council /debate Which font should the marketing site use for headings?');
      const log = await session(result);
      assert.equal(log.state, 'completed');
      assert.equal(log.snapshot.context.precedent, undefined);
      assert.doesNotMatch(log.snapshot.context.finalAnswer ?? '', /Earlier decisions/);
    });
  });
});
