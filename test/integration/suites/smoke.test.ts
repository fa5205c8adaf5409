import * as vscode from 'vscode';
import * as assert from '../assert';
import { PLAIN_MODEL_ID, SCRIPTED_VENDOR, TOOL_MODEL_ID } from '../fixture/src/api';
import { collectStream, councilExtension, fixture, sendChat } from '../harness';

describe('smoke: Council in a real VS Code', () => {
  it('activates the extension', async () => {
    const extension = await councilExtension();
    assert.ok(extension.isActive);
    const { activationMs } = extension.exports as { activationMs: number };
    console.log(`Council activated in ${activationMs.toFixed(1)} ms`);
  });

  it('answers "@council hello" through the chat view with the scripted model picked', async () => {
    const result = await sendChat('@council hello');
    // The fixture's default model only echoes, so the council cannot parse its replies: it must say so
    // clearly, keep the session and offer to retry, never throw.
    const metadata = result.metadata as { council?: number; next?: { kind: string }[] } | undefined;
    assert.equal(metadata?.council, 2);
    assert.match(result.errorDetails?.message ?? '', /wrong format[\s\S]*Try again/);
    assert.equal(metadata?.next?.[0]?.kind, 'retry');
  });

  for (const modelId of [TOOL_MODEL_ID, PLAIN_MODEL_ID]) {
    it(`hands the picked scripted model (${modelId}) to the participant as request.model`, async () => {
      const result = await sendChat('which model?', { modelId });
      assert.deepEqual(result.metadata, { fixtureDefault: true, modelId });
    });
  }

  it('offers the scripted model through vscode.lm and answers a required tool call', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, id: TOOL_MODEL_ID });
    const model = models[0];
    assert.ok(model, 'the scripted model should be selectable');
    const scripted = await fixture();
    scripted.setResponder(request => ({
      toolCall: { name: request.tools[0]?.name ?? 'missing', input: { answer: 42 } },
    }));
    const inputSchema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };

    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('What is the answer?')], {
      tools: [{ name: 'give_answer', description: 'Report the answer', inputSchema }],
      toolMode: vscode.LanguageModelChatToolMode.Required,
    });
    const parts = await collectStream(response);

    assert.equal(parts.length, 1);
    const call = parts[0];
    assert.ok(call instanceof vscode.LanguageModelToolCallPart, 'the reply should be a tool call');
    assert.equal(call.name, 'give_answer');
    assert.deepEqual(call.input, { answer: 42 });
    const [sent] = scripted.requests();
    assert.ok(sent);
    assert.deepEqual(sent.tools, [{ name: 'give_answer', description: 'Report the answer', inputSchema }]);
    assert.equal(sent.toolMode, 'required');
    assert.deepEqual(sent.messages, [{ role: 'user', text: 'What is the answer?' }]);
  });
});
