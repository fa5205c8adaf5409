import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture, newChat, sendChat } from '../harness';
import { playCouncil } from '../councilPlay';
import type { CouncilApi } from '../../../src/extension';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { damagedSessionChoice, EXPORT_DAMAGED_SESSION_COMMAND } from '../../../src/vscode/chat/damagedSession';
import { SessionLog } from '../../../src/core/council/sessionLog';
import { SESSION_KEY_PREFIX } from '../../../src/vscode/storage/sessionStore';

function meta(result: vscode.ChatResult): CouncilResultMetadata {
  return result.metadata as CouncilResultMetadata;
}

/** The extension's workspace state, as the store writes it (the test damages an entry the way a bad write would). */
function memento(store: CouncilApi['store']): vscode.Memento {
  return (store as unknown as { readonly memento: vscode.Memento }).memento;
}

describe('a damaged stored session is never replaced in silence', () => {
  beforeEach(async () => {
    await newChat();
  });

  it('the user is told, the message is not sent, and Continue from the chat’s copy / Export / Start new all work', async () => {
    const api = await fixture();
    const store = ((await councilExtension()).exports as CouncilApi).store;
    playCouncil(api, { questions: 2, convergeAtCycle: 2 });
    const first = await sendChat('@council How should we store sessions?');
    const sessionId = meta(first).sessionId as string;
    assert.equal(meta(first).state, 'clarifying');
    // The first answer is saved to storage only (a Stop or reload mid-turn leaves the chat's copy behind), then
    // storage's copy is damaged.
    const damaged = { updatedAt: new Date().toISOString(), session: { format: 2, events: 'half-written' } };
    await memento(store).update(`${SESSION_KEY_PREFIX}${sessionId}`, damaged);
    const calls = api.requests().length;

    const refused = await sendChat('@council Latency matters most.');
    assert.equal(api.requests().length, calls, 'nothing was sent to the model');
    assert.equal(meta(refused).sessionId, sessionId, 'the thread still points at its session');
    assert.deepEqual(memento(store).get(`${SESSION_KEY_PREFIX}${sessionId}`), damaged, 'nothing was overwritten');
    // Asking again gives the same choice: it stays open until the user makes it.
    const again = await sendChat('@council Latency matters most.');
    assert.equal(api.requests().length, calls);
    assert.equal(meta(again).sessionId, sessionId);

    const exported = await vscode.commands.executeCommand<vscode.TextDocument>(
      EXPORT_DAMAGED_SESSION_COMMAND,
      sessionId,
    );
    assert.match(exported?.getText() ?? '', /"events": "half-written"/);

    const recovered = await sendChat('@council /recover');
    assert.equal(meta(recovered).sessionId, sessionId);
    assert.equal(meta(recovered).state, 'clarifying', "the chat's copy: the question is still open");
    assert.equal(store.load(sessionId)?.ok, true, "the chat's copy is the stored session now");
    const stillExported = await vscode.commands.executeCommand<vscode.TextDocument>(
      EXPORT_DAMAGED_SESSION_COMMAND,
      sessionId,
    );
    assert.match(stillExported?.getText() ?? '', /half-written/, 'the damaged copy is kept aside for export');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The session goes on from there.
    const next = await sendChat('@council Latency matters most.');
    assert.ok(api.requests().length > calls || meta(next).state === 'clarifying');
    assert.equal(meta(next).sessionId, sessionId);
  });

  it('/new starts fresh past a damaged session; the choice reads what happened and offers each way on', async () => {
    const api = await fixture();
    const store = ((await councilExtension()).exports as CouncilApi).store;
    playCouncil(api, { questions: 2, convergeAtCycle: 2 });
    const first = await sendChat('@council How should we store sessions?');
    const sessionId = meta(first).sessionId as string;
    await memento(store).update(`${SESSION_KEY_PREFIX}${sessionId}`, {
      updatedAt: new Date().toISOString(),
      session: 7,
    });
    const calls = api.requests().length;
    const fresh = await sendChat('@council /new Queue or cron?');
    assert.notEqual(meta(fresh).sessionId, sessionId, 'a new session');
    assert.ok(api.requests().length > calls, 'the new session asks the model');

    // What the chat shows, through a real ChatResponseStream's shape.
    const shown: string[] = [];
    const stream = {
      markdown: (text: string | vscode.MarkdownString) => void shown.push(typeof text === 'string' ? text : text.value),
    } as unknown as vscode.ChatResponseStream;
    /** The links the choice offers, in order (Markdown links, so they stay in view). */
    const links = () => [...shown.join('').matchAll(/\[([^\]]+)\]\(command:/g)].map(match => match[1]);
    damagedSessionChoice({ kind: 'damaged', sessionId: 's-1', error: 'events: expected array' }, stream);
    assert.match(
      shown.join(''),
      /session `s-1` could not be restored\*\* \(events: expected array\), and the chat holds no readable copy/,
    );
    assert.match(shown.join(''), /Your message was not sent to the council, and nothing has been changed/);
    assert.deepEqual(links(), ['Export the damaged copy', 'Start a new session']);
    shown.length = 0;
    damagedSessionChoice({ kind: 'missing', sessionId: 's-0' }, stream);
    assert.match(shown.join(''), /session `s-0` could not be restored\*\* \(The session was not found in storage\.\)/);
    assert.deepEqual(links(), ['Start a new session'], 'nothing is stored, so nothing to export');
    const older = store.load(meta(fresh).sessionId as string);
    assert.ok(older?.ok);
    shown.length = 0;
    damagedSessionChoice(
      { kind: 'damaged', sessionId: 's-2', error: 'events: expected array', older: SessionLog.restore(older.stored) },
      stream,
    );
    assert.match(
      shown.join(''),
      /The copy saved in workspace storage is damaged \(events: expected array\)\. The chat keeps an older copy: \d+ recorded steps, clarifying/,
    );
    assert.deepEqual(links(), ["Continue from the chat's copy", 'Export the damaged copy', 'Start a new session']);
  });
});
