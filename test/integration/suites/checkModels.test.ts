import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture } from '../harness';

const ARGS = { confirmed: true, vendor: 'council-test' };

async function runCheck(): Promise<string> {
  await councilExtension();
  const report = await vscode.commands.executeCommand<string | undefined>('council.checkModels', ARGS);
  assert.ok(typeof report === 'string', 'the check ran and returned its report');
  return report;
}

describe('Council: Check Models', function () {
  this.timeout(30_000);

  it('reports a family that refuses the schema with the provider message, and opens the report in an editor', async () => {
    const api = await fixture();
    api.setResponder(request =>
      request.tools.length > 0
        ? { fail: 'Error', message: 'Invalid JSON payload received. Unknown name "const": Cannot find field.' }
        : 'unexpected',
    );
    const report = await runCheck();
    const requests = api.requests();
    assert.equal(requests.length, 1, 'one request for the one family that calls tools');
    const sent = requests[0];
    assert.equal(sent?.toolMode, 'required');
    assert.deepEqual(
      sent?.tools.map(t => t.name),
      ['council_model_check'],
    );
    const schema = JSON.stringify(sent?.tools[0]?.inputSchema);
    assert.doesNotMatch(
      schema,
      /"(const|oneOf|additionalProperties|propertyNames|uniqueItems|\$schema)"/,
      'sent portable',
    );
    assert.match(schema, /"personaIds"/);
    assert.match(report, /\| council-test \| .* \| ❌ refused the schema \| .*Unknown name "const"/);
    assert.match(report, /\| council-test-plain \| .* \| — no tool calling \|/);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.isUntitled, true, 'an untitled editor');
    assert.equal(editor?.document.getText(), report);
  });

  it('reports a family that answers in prose, and one that fills text fields with one character', async () => {
    const api = await fixture();
    api.setResponder(() => 'I think the client should retry three times.');
    assert.match(await runCheck(), /\| council-test \| .* \| ⚠️ answered in prose \| I think the client should retry/);

    api.setResponder(request => {
      const tool = request.tools[0];
      return tool ? { toolCall: { name: tool.name, input: { opening: { reason: 'x' } } } } : 'unexpected';
    });
    assert.match(
      await runCheck(),
      /\| council-test \| .* \| ⚠️ suspiciously short values \| one character or less in: opening\.reason/,
    );
  });
});
