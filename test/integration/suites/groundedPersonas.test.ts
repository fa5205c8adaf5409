import * as vscode from 'vscode';
import * as assert from '../assert';
import { configure, fixture, newChat, sendChat } from '../harness';
import { playCouncil, stepsCalled } from '../councilPlay';
import { councilReply } from '../../support/councilScript';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { chatOutput } from '../../../src/vscode/chat/chatOutput';
import type { ScriptedRequest } from '../fixture/src/api';

const FILE = 'src/util/math.ts';
const SCRIPT = { personaIds: ['senior-developer', 'software-architect'], convergeAtCycle: 1 } as const;

function textOf(request: ScriptedRequest | undefined): string {
  return request?.messages.map(m => m.text).join('\n') ?? '';
}

describe('workspace-grounded personas (council.personas.groundInWorkspace)', () => {
  let restore: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    await newChat();
    // One cycle: no speculative drafts of a next cycle, so the request counts are exact.
    restore = await configure({ 'personas.groundInWorkspace': true, 'debate.maxCycles': 1 });
  });
  afterEach(async () => {
    await restore?.();
  });

  it('a persona reads a workspace file once, the result reaches its next requests fenced as data, and its contribution cites the file', async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    const api = await fixture();
    playCouncil(api, SCRIPT, (step, request) => {
      if (request.toolMode === 'auto' && request.tools.some(t => t.name === 'read_file_range')) {
        // Read once; once a tool result is in the conversation, stop looking things up.
        const read = request.messages.some(m => m.text.includes('[tool result'));
        return read
          ? 'I have what I need.'
          : { toolCall: { name: 'read_file_range', input: { path: FILE, startLine: 1, endLine: 3 } } };
      }
      if (step !== 'contribute_to_debate') return undefined;
      const value = councilReply(step, textOf(request), SCRIPT) as { argument: string };
      return {
        toolCall: {
          name: step,
          input: {
            ...value,
            argument: `${value.argument} ${FILE} already has add(a, b).`,
            // The fact the position rests on: what the answer is written from.
            keyPoints: [`${FILE} already has add(a, b).`],
          },
        },
      };
    });
    const result = await sendChat('@council /debate Where should a subtract helper live?');
    assert.equal((result.metadata as CouncilResultMetadata).state, 'completed');

    const requests = api.requests();
    const steps = stepsCalled(api);
    const lookups = requests.filter(r => r.toolMode === 'auto' && r.tools.length > 0);
    assert.equal(lookups.length, 4, 'two personas, each: one read, one turn without calls');
    assert.ok(
      lookups.every(
        r =>
          r.tools
            .map(t => t.name)
            .sort()
            .join() === 'list_files,read_file_range,search_text',
      ),
      'only read-only tools are offered',
    );
    const second = lookups.find(r => r.messages.some(m => m.text.includes('[tool result')));
    assert.match(
      textOf(second),
      /<untrusted-data source="workspace_read_file_range">[\s\S]*return a \+ b;/,
      'the tool result reached the next request',
    );
    const contributions = requests.filter((_, i) => steps[i] === 'contribute_to_debate');
    assert.equal(contributions.length, 2);
    for (const request of contributions)
      assert.match(
        textOf(request),
        /<untrusted-data source="workspace_read_file_range">[\s\S]*return a \+ b;/,
        'and the contribution request',
      );
    const final = requests.filter((_, i) => steps[i] === 'write_answer');
    assert.ok(
      final.length === 1 && textOf(final[0]).includes(`${FILE} already has add(a, b).`),
      'the final answer is written from the key points citing the file',
    );

    // The chat shows a cited workspace path as a link to the file.
    const anchors: [vscode.Uri, string | undefined][] = [];
    const stream = {
      anchor: (uri: vscode.Uri, title?: string) => void anchors.push([uri, title]),
    } as unknown as vscode.ChatResponseStream;
    chatOutput(stream).anchor?.(FILE);
    chatOutput(stream).anchor?.('../outside.ts');
    const folder = vscode.workspace.workspaceFolders?.[0] as vscode.WorkspaceFolder;
    assert.deepEqual(
      anchors.map(([uri, title]) => [uri.toString(), title]),
      [[vscode.Uri.joinPath(folder.uri, FILE).toString(), FILE]],
    );
  });
});
