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
});
