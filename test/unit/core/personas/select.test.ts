import { messageText } from '../../../../src/core/llm/usage';
import { strict as assert } from 'node:assert';
import {
  CancelledError,
  LanguageModelFailure,
  neverCancelled,
  type ChatMessage,
} from '../../../../src/core/llm/languageModel';
import type { PersonaContract } from '../../../../src/core/personas/contract';
import { loadPersonas } from '../../../../src/core/personas/registry';
import { PersonaSelectionSchema, selectPersonas, type PersonaSelection } from '../../../../src/core/personas/select';
import {
  cancellationSource,
  replyByTool,
  ScriptedModel,
  valueReply,
  type ScriptedReply,
} from '../../../support/scriptedModel';
import { nodePersonaSource } from '../../../support/nodePersonaSource';

function textOf(message: ChatMessage | undefined): string {
  return message ? messageText(message) : '';
}

function modelReplying(replies: ScriptedReply | readonly ScriptedReply[], supportsToolCalling = true): ScriptedModel {
  return new ScriptedModel(replyByTool({ select_personas: replies }), { supportsToolCalling });
}

/** Asserts the spec invariants (non-empty, override names iff override) and returns the selection. */
function valid(selection: PersonaSelection): PersonaSelection {
  PersonaSelectionSchema.parse(selection);
  return selection;
}

describe('selectPersonas', () => {
  let personas: readonly PersonaContract[];
  before(async () => {
    personas = (await loadPersonas({ builtIn: nodePersonaSource() })).personas;
  });

  const byIds = (...ids: string[]) => ids.flatMap(id => personas.filter(p => p.id === id));

  it('asks the model to classify and choose 2-4 personas, and returns them in the order chosen', async () => {
    const model = modelReplying(
      valueReply({
        classification: 'security',
        personaIds: ['security-expert', 'software-architect', 'devils-advocate'],
        reason: 'Token storage is a security decision with architectural consequences.',
      }),
    );
    const request = 'How should our SPA store refresh tokens?';
    const selection = valid(await selectPersonas({ request, personas, model, token: neverCancelled }));

    assert.equal(selection.classification, 'security');
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['security-expert', 'software-architect', 'devils-advocate'],
    );
    assert.equal(selection.reason, 'Token storage is a security decision with architectural consequences.');
    assert.equal(selection.userOverride, false);
    assert.deepEqual(selection.overriddenPersonas, []);

    assert.equal(model.callCount, 1);
    const prompt = model.lastRequest.messages.map(textOf).join('\n');
    assert.ok(prompt.includes(request), 'the prompt carries the request');
    for (const persona of personas) assert.ok(prompt.includes(`id: ${persona.id}`), `catalog lists ${persona.id}`);
    const schema = JSON.stringify(model.lastRequest.tools[0]?.inputSchema);
    assert.match(schema, /"minItems":2,"maxItems":4/);
    assert.ok(schema.includes('"devils-advocate"'), 'the known ids are an enum in the schema');
  });

  it('drops an unknown persona id before validation when enough known personas remain (no repair round)', async () => {
    const model = modelReplying(
      valueReply({
        classification: 'data',
        personaIds: ['software-architect', 'database-administrator', 'performance-engineer'],
        reason: 'Schema design.',
      }),
    );
    const selection = valid(
      await selectPersonas({ request: 'Design the orders schema', personas, model, token: neverCancelled }),
    );
    assert.equal(model.callCount, 1);
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['software-architect', 'performance-engineer'],
    );
  });

  it('drops a repeated id, and reads a persona name or another case as its id (no repair round)', async () => {
    const architect = personas.find(p => p.id === 'software-architect');
    const model = modelReplying(
      valueReply({
        classification: 'testing',
        personaIds: ['qa-engineer', 'QA-Engineer', architect?.name, 'qa-engineer'],
        reason: 'Tests and design.',
      }),
    );
    const selection = valid(
      await selectPersonas({ request: 'Our tests are flaky', personas, model, token: neverCancelled }),
    );
    assert.equal(model.callCount, 1);
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['qa-engineer', 'software-architect'],
    );
  });

  it('says in the schema sent that each id appears once and is one of the catalog', async () => {
    const model = modelReplying(
      valueReply({ classification: 'testing', personaIds: ['qa-engineer', 'senior-developer'], reason: 'Tests.' }),
    );
    await selectPersonas({ request: 'Our tests are flaky', personas, model, token: neverCancelled });
    const ids = (
      model.lastRequest.tools[0]?.inputSchema as {
        properties: { personaIds: { description?: string; items: { enum: string[] } } };
      }
    ).properties.personaIds;
    assert.match(String(ids.description), /Each item at most once\./);
    assert.deepEqual(
      ids.items.enum,
      personas.map(p => p.id),
    );
  });

  it('feeds a panel left too small by unknown ids back to the model and uses the repaired reply', async () => {
    const model = modelReplying([
      valueReply({
        classification: 'data',
        personaIds: ['software-architect', 'database-administrator'],
        reason: 'Schema design.',
      }),
      valueReply({
        classification: 'data',
        personaIds: ['software-architect', 'performance-engineer'],
        reason: 'Schema design and query cost.',
      }),
    ]);
    const selection = valid(
      await selectPersonas({ request: 'Design the orders schema', personas, model, token: neverCancelled }),
    );

    assert.equal(model.callCount, 2);
    const repair = textOf(model.lastRequest.messages.at(-1));
    assert.match(repair, /personaIds/, 'the repair names the offending field');
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['software-architect', 'performance-engineer'],
    );
    assert.equal(selection.reason, 'Schema design and query cost.');
  });

  it('repairs a panel that is too large or repeats a persona', async () => {
    const model = modelReplying([
      valueReply({ classification: 'general', personaIds: personas.slice(0, 5).map(p => p.id), reason: 'Everyone.' }),
      valueReply({ classification: 'general', personaIds: ['qa-engineer', 'qa-engineer'], reason: 'Testing twice.' }),
      valueReply({
        classification: 'testing',
        personaIds: ['qa-engineer', 'senior-developer'],
        reason: 'Tests and code.',
      }),
    ]);
    const selection = valid(
      await selectPersonas({ request: 'Our tests are flaky', personas, model, token: neverCancelled }),
    );
    assert.equal(model.callCount, 3);
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['qa-engineer', 'senior-developer'],
    );
  });

  it('works with a model without tool calling (fenced JSON)', async () => {
    const model = modelReplying(
      valueReply({
        classification: 'operations',
        personaIds: ['devops-engineer', 'senior-developer'],
        reason: 'Deploy pipeline.',
      }),
      false,
    );
    const selection = valid(
      await selectPersonas({ request: 'Speed up our CI', personas, model, token: neverCancelled }),
    );
    assert.equal(model.lastRequest.tools.length, 0);
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['devops-engineer', 'senior-developer'],
    );
  });

  it('caps the panel at the number of personas available', async () => {
    const model = modelReplying(
      valueReply({ classification: 'general', personaIds: ['qa-engineer', 'devils-advocate'], reason: 'r' }),
    );
    await selectPersonas({
      request: 'x',
      personas: byIds('qa-engineer', 'devils-advocate', 'product-manager'),
      model,
      token: neverCancelled,
    });
    assert.match(JSON.stringify(model.lastRequest.tools[0]?.inputSchema), /"minItems":2,"maxItems":3/);
  });

  it('takes the personas the user named as an override, without a model call', async () => {
    const model = modelReplying(valueReply({}));
    const selection = valid(
      await selectPersonas({
        request: 'ask the security expert and the architect whether JWTs belong in localStorage',
        personas,
        model,
        token: neverCancelled,
      }),
    );
    assert.equal(model.callCount, 0);
    assert.equal(selection.userOverride, true);
    assert.deepEqual(selection.overriddenPersonas, ['Security Expert', 'Software Architect']);
    assert.deepEqual(
      selection.personas.map(p => p.id),
      ['security-expert', 'software-architect'],
    );
    assert.equal(selection.classification, 'general');
    assert.equal(selection.reason, 'You asked for Security Expert and Software Architect.');
  });

  it('accepts a single named persona and says unknown names in the override', async () => {
    const selection = valid(
      await selectPersonas({
        request: 'with the QA engineer and a lawyer: is this release ready?',
        personas,
        model: modelReplying(valueReply({})),
        token: neverCancelled,
      }),
    );
    assert.deepEqual(selection.overriddenPersonas, ['QA Engineer']);
    assert.match(selection.reason, /"lawyer": no such persona/);
    assert.match(selection.reason, /no debate/);
  });

  it('uses every persona without a model call when there are two or fewer', async () => {
    const model = modelReplying(valueReply({}));
    const two = valid(
      await selectPersonas({
        request: 'x',
        personas: byIds('qa-engineer', 'devils-advocate'),
        model,
        token: neverCancelled,
      }),
    );
    assert.deepEqual(
      two.personas.map(p => p.id),
      ['qa-engineer', 'devils-advocate'],
    );
    const one = valid(
      await selectPersonas({ request: 'x', personas: byIds('qa-engineer'), model, token: neverCancelled }),
    );
    assert.deepEqual(
      one.personas.map(p => p.id),
      ['qa-engineer'],
    );
    assert.match(one.reason, /Only one persona \(QA Engineer\)/);
    assert.equal(model.callCount, 0);
    await assert.rejects(
      selectPersonas({ request: 'x', personas: [], model, token: neverCancelled }),
      /No council personas/,
    );
  });

  describe('when the reply stays malformed after the repairs', () => {
    const garbage = valueReply({ classification: 'astrology', personaIds: [], reason: '' });

    it('falls back to the default personas', async () => {
      const selection = valid(
        await selectPersonas({
          request: 'x',
          personas,
          model: modelReplying(garbage),
          token: neverCancelled,
          defaults: { personaIds: ['senior-developer', 'unknown-id', 'devils-advocate'] },
        }),
      );
      assert.deepEqual(
        selection.personas.map(p => p.id),
        ['senior-developer', 'devils-advocate'],
      );
      assert.match(selection.reason, /default personas \(Senior Developer and Devil's Advocate\)/);
    });

    it('fails with the model failure when there are no defaults', async () => {
      const model = modelReplying(garbage);
      await assert.rejects(
        selectPersonas({ request: 'x', personas, model, token: neverCancelled }),
        (error: unknown) => error instanceof LanguageModelFailure && error.kind === 'malformedReply',
      );
      assert.equal(model.callCount, 3, 'first attempt plus two repairs');
    });
  });

  it('does not fall back on a refusal: the user must see it', async () => {
    const model = modelReplying({ kind: 'error', error: new LanguageModelFailure('blocked', 'blocked by policy') });
    await assert.rejects(
      selectPersonas({
        request: 'x',
        personas,
        model,
        token: neverCancelled,
        defaults: { personaIds: ['qa-engineer', 'senior-developer'] },
      }),
      (error: unknown) => error instanceof LanguageModelFailure && error.kind === 'blocked',
    );
  });

  it('stops before calling the model when already cancelled', async () => {
    const model = modelReplying(valueReply({}));
    const cancellation = cancellationSource();
    cancellation.cancel();
    await assert.rejects(selectPersonas({ request: 'x', personas, model, token: cancellation.token }), CancelledError);
    assert.equal(model.callCount, 0);
  });
});
