import * as vscode from 'vscode';
import type { PersonaContract } from '../../../src/core/personas/contract';
import { adaptLanguageModel } from '../../../src/vscode/languageModel/languageModelAdapter';
import { createRoleModels } from '../../../src/vscode/languageModel/roleModels';
import * as assert from '../assert';
import { PLAIN_MODEL_ID, SCRIPTED_VENDOR, TOOL_MODEL_ID } from '../fixture/src/api';
import { playCouncil, stepsCalled } from '../councilPlay';
import { configure, fixture, newChat, sendChat } from '../harness';

const PERSONA: PersonaContract = {
  id: 'security-expert',
  name: 'Security Expert',
  role: 'Finds what can be abused.',
  expertise: ['threat modelling'],
  relevantTo: ['security'],
  tone: 'Direct.',
  cognitiveMode: 'convergent',
  instructions: 'Think like an attacker.',
  origin: 'builtIn',
  path: 'personas/security-expert.md',
};

async function chatModel(): Promise<vscode.LanguageModelChat> {
  const [model] = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, id: TOOL_MODEL_ID });
  assert.ok(model, 'the chat model is selectable');
  return model as vscode.LanguageModelChat;
}

describe('models per role, chosen from the models VS Code offers', () => {
  it("a persona file's model wins, then council.models.personas, then the chat's model; an unavailable one falls back with a note", async () => {
    const chat = await chatModel();
    const roles = createRoleModels(
      chat,
      { personaModel: `${SCRIPTED_VENDOR}/${PLAIN_MODEL_ID}`, synthesisModel: 'no-such-model' },
      adaptLanguageModel,
    );

    const bySetting = await roles.forPersona(PERSONA);
    assert.equal(bySetting.model.id, PLAIN_MODEL_ID);
    assert.equal(bySetting.note, undefined);

    const byFile = await roles.forPersona({ ...PERSONA, model: ['missing-family', TOOL_MODEL_ID] });
    assert.equal(byFile.model.id, TOOL_MODEL_ID);
    assert.match(
      byFile.note ?? '',
      /^`missing-family` \(Security Expert's `model:`\) is not available; Security Expert uses .+ instead\.$/,
    );

    const answer = await roles.forSynthesis();
    assert.equal(answer.model.id, TOOL_MODEL_ID, "the chat's model");
    assert.match(
      answer.note ?? '',
      /^`no-such-model` \(`council\.models\.synthesis`\) is not available; The consolidated answer uses .+, the chat's model\.$/,
    );
  });

  it('with nothing configured every role uses the chat model, without asking VS Code for the list', async () => {
    const chat = await chatModel();
    let asked = 0;
    const roles = createRoleModels(chat, { personaModel: '', synthesisModel: '' }, adaptLanguageModel, () => {
      asked += 1;
      return vscode.lm.selectChatModels();
    });
    assert.equal((await roles.forPersona(PERSONA)).model.id, TOOL_MODEL_ID);
    assert.equal((await roles.forSynthesis()).model.id, TOOL_MODEL_ID);
    assert.equal(asked, 0);
  });
});

describe('council.models.diverse in a chat turn', function () {
  this.timeout(30_000);

  it('seats personas only on models with tool calling: the plain model gets no seat; selection and the answer stay on the chat’s model', async () => {
    await newChat();
    const restore = await configure({ 'models.diverse': true, 'debate.maxCycles': 2 });
    try {
      const api = await fixture();
      playCouncil(api, { questions: 0, convergeAtCycle: 2 });
      const result = await sendChat('@council /debate Queue or cron for the nightly export?');
      assert.equal((result.metadata as { state?: string }).state, 'completed');
      const steps = stepsCalled(api);
      const models = api.requests().map(r => r.modelId);
      const contributions = new Set(models.filter((_, i) => steps[i] === 'contribute_to_debate'));
      // The only other family here has no tool calling (diverseRoster's unit tests seat several families).
      assert.deepEqual([...contributions], [TOOL_MODEL_ID]);
      assert.ok(
        models.filter((_, i) => steps[i] !== 'contribute_to_debate').every(id => id === TOOL_MODEL_ID),
        `selection and the answer stay on the chat's model: ${models.join(', ')}`,
      );
    } finally {
      await restore();
    }
  });
});

describe('council.models.personas in a chat turn', function () {
  this.timeout(30_000);

  it("the personas debate on the configured model and the rest runs on the chat's", async () => {
    await newChat();
    const restore = await configure({
      'models.personas': `${SCRIPTED_VENDOR}/${PLAIN_MODEL_ID}`,
      'debate.maxCycles': 2,
    });
    try {
      const api = await fixture();
      playCouncil(api, { questions: 0, convergeAtCycle: 2 });
      const result = await sendChat('@council /debate Queue or cron for the nightly export?');
      assert.equal((result.metadata as { state?: string }).state, 'completed');
      const steps = stepsCalled(api);
      const models = api.requests().map(r => r.modelId);
      const contributions = models.filter((_, i) => steps[i] === 'contribute_to_debate');
      assert.ok(
        contributions.length > 0 && contributions.every(id => id === PLAIN_MODEL_ID),
        `contributions on ${contributions.join(', ')}`,
      );
      assert.ok(
        models.filter((_, i) => steps[i] !== 'contribute_to_debate').every(id => id === TOOL_MODEL_ID),
        `the rest on ${models.join(', ')}`,
      );
    } finally {
      await restore();
    }
  });
});
