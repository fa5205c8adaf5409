import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture, newChat, sendChat, workspaceUri, writeWorkspaceFile } from '../harness';
import { playCouncil, stepsCalled } from '../councilPlay';
import type { CouncilApi } from '../../../src/extension';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { SessionLog } from '../../../src/core/council/sessionLog';
import { attachedContext } from '../../../src/vscode/chat/chatReferences';
import { PARTICIPANT_ID } from '../../../src/vscode/councilParticipant';
import { SCRIPTED_VENDOR } from '../fixture/src/api';

/** Sends a chat turn with files (or `{ uri, range }` selections) attached through the chat view's own attachment model. */
async function sendWithAttachments(query: string, attachFiles: readonly unknown[]): Promise<vscode.ChatResult> {
  const result = await vscode.commands.executeCommand<vscode.ChatResult | undefined>('workbench.action.chat.open', {
    query,
    isPartialQuery: false,
    modelSelector: { vendor: SCRIPTED_VENDOR },
    blockOnResponse: true,
    attachFiles,
  });
  assert.ok(result, 'the chat view returned a result');
  return result as vscode.ChatResult;
}

async function sessionOf(result: vscode.ChatResult): Promise<SessionLog> {
  const id = (result.metadata as CouncilResultMetadata | undefined)?.sessionId;
  assert.ok(id, 'the result names its session');
  const saved = ((await councilExtension()).exports as CouncilApi).store.load(id as string);
  assert.ok(saved?.ok, 'the session is stored');
  return SessionLog.restore(saved?.ok ? saved.stored : undefined);
}

/** The text of every model call for `step`. */
function promptsFor(step: string, api: Awaited<ReturnType<typeof fixture>>): string[] {
  const steps = stepsCalled(api);
  return api
    .requests()
    .flatMap((request, index) => (steps[index] === step ? [request.messages.map(m => m.text).join('\n')] : []));
}

/** Every `<attachment ...>` fence of a prompt: its attributes and body. */
function fences(prompt: string): { attrs: string; body: string }[] {
  return [...prompt.matchAll(/<attachment( [^>]*)?>\n([\s\S]*?)\n<\/attachment>/g)].map(m => ({
    attrs: m[1] ?? '',
    body: m[2] ?? '',
  }));
}

const BIG = 'big-attached.txt';
const BINARY = 'logo-attached.bin';

describe('attached context (#file, selections) reaches the council', () => {
  beforeEach(async () => {
    await newChat();
  });
  afterEach(async () => {
    for (const path of [BIG, BINARY])
      await vscode.workspace.fs.delete(workspaceUri(path)).then(undefined, () => undefined);
  });

  it('files attached in the chat view are fenced as data in every step, a too-large one cut with a note, and kept for the next turn', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 1 });
    const bigText = Array.from({ length: 3_000 }, (_, i) => `line ${i} of a large attached file`).join('\n');
    await writeWorkspaceFile(BIG, bigText);
    await writeWorkspaceFile(BINARY, new Uint8Array([137, 80, 78, 71, 0, 0, 1, 2]));
    const selection = {
      uri: workspaceUri('src/util/math.ts'),
      range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 10 },
    };
    const first = await sendWithAttachments('@council Review the app entry point', [
      workspaceUri('src/app.ts'),
      workspaceUri(BIG),
      workspaceUri(BINARY),
      selection,
    ]);
    assert.equal((first.metadata as CouncilResultMetadata).state, 'clarifying');

    const log = await sessionOf(first);
    const byLabel = new Map(log.attached.map(item => [item.label, item]));
    assert.deepEqual(
      [...byLabel.keys()].sort(),
      [BIG, BINARY, 'src/app.ts', 'src/util/math.ts:1'].sort(),
      'every attachment is stored with the session',
    );
    const app = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri('src/app.ts')));
    assert.equal(byLabel.get('src/app.ts')?.content, app);
    assert.match(
      byLabel.get(BIG)?.note ?? '',
      /^Cut to the first \d+ of \d+ characters to fit the 24000-character limit per item/,
    );
    assert.ok(
      (byLabel.get(BIG)?.content?.length ?? 0) <= 24_000 && bigText.startsWith(byLabel.get(BIG)?.content ?? 'x'),
    );
    assert.equal(byLabel.get(BINARY)?.content, undefined);
    assert.match(byLabel.get(BINARY)?.note ?? '', /Binary file/);
    assert.equal(byLabel.get('src/util/math.ts:1')?.kind, 'selection');

    for (const step of ['open_session']) {
      const [prompt] = promptsFor(step, api);
      assert.ok(prompt, `${step} was asked`);
      const appFence = fences(prompt as string).find(f => f.attrs.includes('label="src/app.ts"'));
      assert.ok(appFence?.body.includes(app.split('\n')[0] ?? 'x'), `${step}: the file's content is inside its fence`);
    }
    const clarify = promptsFor('open_session', api)[0] as string;
    const bigFence = fences(clarify).find(f => f.attrs.includes(`label="${BIG}"`));
    assert.match(bigFence?.attrs ?? '', /note="Cut to the first/);
    assert.ok(!(bigFence?.body ?? '').includes('line 2999 '), 'the cut part is not sent');

    // The answer turn carries no attachments of its own: the debate still sees the session's.
    const final = await sendChat('@council Readability matters most');
    assert.equal((final.metadata as CouncilResultMetadata).state, 'completed');
    const debate = promptsFor('contribute_to_debate', api);
    assert.ok(debate.length > 0, 'the council debated');
    for (const prompt of debate)
      assert.ok(
        fences(prompt).some(f => f.attrs.includes('label="src/app.ts"') && f.body.includes(app.split('\n')[0] ?? 'x')),
        'every debate turn sees the file',
      );
  });

  it("a file attached to a later turn of the session (an answer) joins the session's context", async () => {
    const api = await fixture();
    playCouncil(api, { questions: 1 });
    const first = await sendChat('@council How should lib/format.ts be structured?');
    assert.equal((await sessionOf(first)).attached.length, 0);
    const final = await sendWithAttachments('@council Keep it small', [workspaceUri('lib/format.ts')]);
    assert.equal(
      (final.metadata as CouncilResultMetadata).sessionId,
      (first.metadata as CouncilResultMetadata).sessionId,
      'the same session',
    );
    assert.deepEqual(
      (await sessionOf(final)).attached.map(i => i.label),
      ['lib/format.ts'],
    );
    const debate = promptsFor('contribute_to_debate', api);
    assert.ok(
      debate.length > 0 && debate.every(p => fences(p).some(f => f.attrs.includes('label="lib/format.ts"'))),
      'the debate sees the file attached with the answer',
    );
  });

  it('/plan hands the attached files to its agents as fenced, untrusted data', async () => {
    const api = await fixture();
    api.setResponder(() => ({ fail: 'NotFound', message: 'scripted: stop after the first call' }));
    await sendWithAttachments('@council /plan Add a subtract helper', [workspaceUri('src/app.ts')]);
    const prompt =
      api
        .requests()[0]
        ?.messages.map(m => m.text)
        .join('\n') ?? '';
    assert.ok(prompt, 'the run asked the model');
    const contribution =
      /<untrusted-data source="attached-context">([\s\S]*?)<\/untrusted-data>/.exec(prompt)?.[1] ?? '';
    const app = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri('src/app.ts')));
    assert.ok(
      fences(contribution).some(
        f => f.attrs.includes('label="src/app.ts"') && f.body.includes(app.split('\n')[0] ?? 'x'),
      ),
      "the file is inside its fence in the agent's prompt",
    );
  });

  it('the adapter turns selections, plain values, unreadable files and failing tools into bounded items and cites what it used', async () => {
    const cited: unknown[] = [];
    const shown: string[] = [];
    const stream = {
      reference: (value: unknown) => void cited.push(value),
      markdown: (text: string) => void shown.push(text),
    } as unknown as vscode.ChatResponseStream;
    const selection = new vscode.Location(workspaceUri('src/app.ts'), new vscode.Range(2, 0, 3, 0));
    const missing = workspaceUri('no-such-file.ts');
    const request = {
      references: [
        { id: 'vscode.selection', value: selection },
        { id: 'note', modelDescription: 'A pasted note', value: 'Remember the 2 s timeout.' },
        { id: 'vscode.file', value: missing },
        {
          id: JSON.stringify({ uri: 'src/util/math.ts', range: [0, 0] }),
          name: 'add',
          value: new vscode.Location(workspaceUri('src/util/math.ts'), new vscode.Range(0, 0, 0, 5)),
        },
        { id: 'image-1', name: 'screenshot.png', value: { mimeType: 'image/png' } },
      ],
      toolReferences: [{ name: 'council_test_no_such_tool' }],
      toolInvocationToken: undefined,
    } as unknown as vscode.ChatRequest;
    const source = new vscode.CancellationTokenSource();
    const items = await attachedContext(request, [], PARTICIPANT_ID, undefined, stream, source.token);
    const document = await vscode.workspace.openTextDocument(workspaceUri('src/app.ts'));
    assert.deepEqual(
      items.map(i => [i.label, i.kind]),
      [
        ['src/app.ts:3', 'selection'],
        ['A pasted note', 'text'],
        ['no-such-file.ts', 'file'],
        ['src/util/math.ts:1', 'symbol'],
        ['screenshot.png', 'text'],
        ['#council_test_no_such_tool', 'tool'],
      ],
    );
    const math = await vscode.workspace.openTextDocument(workspaceUri('src/util/math.ts'));
    assert.equal(items[3]?.content, math.lineAt(0).text, 'a symbol shows the lines of its location');
    assert.match(items[4]?.note ?? '', /cannot read \(such as an image\); named only/);
    assert.equal(
      items[0]?.content,
      document.lineAt(2).text,
      'a selection ending at a line start covers the lines before it',
    );
    assert.equal(items[1]?.content, 'Remember the 2 s timeout.');
    assert.match(items[2]?.note ?? '', /^Could not be read/);
    assert.match(items[5]?.note ?? '', /^Could not be read \(the tool failed/);
    assert.equal(cited.length, 3, 'the selection, the file and the symbol are cited');
    assert.match(shown.join(''), /no-such-file\.ts/, 'the user is told what could not be read');
  });

  it('a file outside the workspace folder is used only because it was attached, and marked so', async () => {
    const outside = vscode.Uri.joinPath((await councilExtension()).extensionUri, 'package.json');
    const stream = { reference: () => undefined, markdown: () => undefined } as unknown as vscode.ChatResponseStream;
    const request = {
      references: [{ id: 'vscode.file', value: outside }],
      toolReferences: [],
      toolInvocationToken: undefined,
    } as unknown as vscode.ChatRequest;
    const [item] = await attachedContext(
      request,
      [],
      PARTICIPANT_ID,
      undefined,
      stream,
      new vscode.CancellationTokenSource().token,
    );
    // Whether the host can read the extension's folder differs (web: served over http); the mark is the same.
    assert.match(item?.note ?? '', /Outside the workspace folder; included because the user attached it explicitly/);
  });
});
