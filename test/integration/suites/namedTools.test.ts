import * as vscode from 'vscode';
import { referencedTools } from '../../../src/vscode/chat/referencedTools';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import * as assert from '../assert';
import { playCouncil, stepsCalled } from '../councilPlay';
import { configure, fixture, newChat, sendChat } from '../harness';

const TOOL = 'councilTest_lookup';

function textOf(request: { readonly messages: readonly { readonly text: string }[] } | undefined): string {
  return (request?.messages ?? []).map(m => m.text).join('\n');
}

describe("the user's #-named tools in the personas' look-ups", function () {
  this.timeout(30_000);
  let restore: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    await newChat();
    restore = await configure({ 'personas.groundInWorkspace': true, 'debate.maxCycles': 1 });
  });
  afterEach(async () => {
    await restore?.();
  });

  it('the adapter describes a referenced tool as VS Code does and runs it through vscode.lm.invokeTool', async () => {
    const { tools } = referencedTools({
      toolReferences: [{ name: TOOL }, { name: 'council_test_no_such_tool' }],
      toolInvocationToken: undefined,
    } as unknown as vscode.ChatRequest);
    assert.deepEqual(
      tools.map(t => t.definition.name),
      [TOOL],
      'a tool VS Code does not offer is left out',
    );
    assert.match(tools[0]?.definition.description ?? '', /Looks up a project fact/);
    const token = new vscode.CancellationTokenSource().token;
    assert.match(
      await (tools[0] as (typeof tools)[number]).invoke({ query: 'retry budget' }, token),
      /Lookup for "retry budget": the retry budget is 3 attempts/,
    );
  });

  it("renders a tool's prompt-tsx result (as built-in tools return) as text", async () => {
    const { tools } = referencedTools({
      toolReferences: [{ name: 'councilTest_structuredLookup' }],
      toolInvocationToken: undefined,
    } as unknown as vscode.ChatRequest);
    assert.equal(tools.length, 1);
    const token = new vscode.CancellationTokenSource().token;
    assert.match(
      await (tools[0] as (typeof tools)[number]).invoke({ query: 'cache' }, token),
      /Structured lookup for "cache": the cache holds 64 entries/,
    );
  });

  it('a persona may call #councilLookup while drafting; its result reaches the contribution fenced as data, and offers nothing that writes', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 1 }, (step, request) => {
      if (request.toolMode !== 'auto' || !request.tools.some(t => t.name === TOOL)) return undefined;
      const answered = request.messages.some(m => m.text.includes('[tool result'));
      return answered ? 'I have what I need.' : { toolCall: { name: TOOL, input: { query: 'retry budget' } } };
    });
    const result = await sendChat('@council /debate #councilLookup How many times should the client retry?');
    assert.equal((result.metadata as CouncilResultMetadata).state, 'completed');
    const requests = api.requests();
    const lookups = requests.filter(r => r.toolMode === 'auto' && r.tools.length > 0);
    assert.ok(lookups.length > 0, 'the personas looked things up');
    for (const lookup of lookups) {
      const names = lookup.tools.map(t => t.name).sort();
      assert.deepEqual(
        names,
        ['councilTest_lookup', 'list_files', 'read_file_range', 'search_text'],
        'the workspace tools and the named one, nothing that writes',
      );
    }
    const steps = stepsCalled(api);
    const contributions = requests.filter((_, i) => steps[i] === 'contribute_to_debate');
    assert.ok(contributions.length > 0);
    for (const contribution of contributions) {
      assert.match(
        textOf(contribution),
        /<untrusted-data source="tool_councilTest_lookup">[\s\S]*the retry budget is 3 attempts[\s\S]*<\/untrusted-data>/,
      );
    }
    assert.equal(
      await vscode.workspace.fs
        .stat(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'package.json'))
        .then(
          () => true,
          () => false,
        ),
      false,
      'nothing was written',
    );
  });
});
