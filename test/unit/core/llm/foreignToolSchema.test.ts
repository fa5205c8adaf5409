import * as assert from 'node:assert/strict';
import { forwardableSchema } from '../../../../src/core/llm/foreignToolSchema';
import { nonPortable } from '../../../support/portableSchemaRules';

describe("forwardableSchema (other extensions' tools, normalized as Copilot does)", () => {
  it('turns what Gemini rejects into the portable subset: $schema, nullable type arrays, top-level unions, unknown keywords', () => {
    const mcp = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      anyOf: [{ required: ['query'] }, { required: ['path'] }],
      properties: {
        query: { type: ['string', 'null'], description: 'What to look for.' },
        path: { type: 'string', format: 'uri', examples: ['file:///a'] },
        mode: {
          oneOf: [
            { type: 'string', const: 'fast' },
            { type: 'string', const: 'exact' },
          ],
        },
        limit: { type: 'integer', exclusiveMinimum: 0 },
        labels: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        options: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['query', 'missing'],
    };
    const forwarded = forwardableSchema(mcp);
    assert.ok(forwarded.ok);
    assert.deepEqual(nonPortable(forwarded.schema), []);
    const properties = forwarded.schema['properties'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(properties['query'], { type: 'string', description: 'What to look for.', nullable: true });
    assert.deepEqual(properties['mode'], {
      anyOf: [
        { type: 'string', enum: ['fast'] },
        { type: 'string', enum: ['exact'] },
      ],
    });
    assert.deepEqual(forwarded.schema['required'], ['query']);
    assert.ok(forwarded.fixes.includes('$: top-level anyOf dropped'));
    assert.ok(forwarded.fixes.includes('$: $schema dropped'));
    assert.equal(properties['options'], undefined, 'an optional free-form object is left out');
  });

  it('leaves out a tool whose required input is a free-form object', () => {
    const forwarded = forwardableSchema({
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['env'],
    });
    assert.deepEqual(forwarded, {
      ok: false,
      reason: 'its input needs a free-form object (at $.env), which not every model accepts',
    });
  });

  it('gives a tool without a schema, or with a non-object one, an empty object input', () => {
    for (const schema of [undefined, { type: 'string' }]) {
      const forwarded = forwardableSchema(schema);
      assert.ok(forwarded.ok);
      assert.deepEqual(forwarded.schema, { type: 'object', properties: {} });
    }
  });

  it('leaves out a tool whose schema has an array without items (Copilot refuses it too), saying why', () => {
    const forwarded = forwardableSchema({ type: 'object', properties: { files: { type: 'array' } } });
    assert.deepEqual(forwarded, { ok: false, reason: 'its input schema has an array without items (at $.files)' });
  });

  it('leaves a portable schema as it is', () => {
    const schema = { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] };
    assert.deepEqual(forwardableSchema(schema), { ok: true, schema, fixes: [] });
  });
});
