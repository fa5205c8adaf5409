import assert from 'node:assert/strict';
import { DESCRIBED_ONCE_MIN_CHARS, describeShapesOnce } from '../../../../src/core/llm/schemaShapes';
import { jsonSchemaOf } from '../../../../src/core/llm/structuredOutput';
import { discoveryCollectorRequest } from '../../../../src/core/plan/drafts/discoveryCollectorRequest';

type Node = Record<string, unknown>;
const prop = (node: unknown, ...path: string[]): Node => path.reduce<Node>((at, key) => at[key] as Node, node as Node);

/** A reference shape with long field descriptions (past the described-once size). */
function reference(says: string): Node {
  return {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: `${says}: the file the reference points into, as listed.` },
      line: { type: 'integer', minimum: 1, description: `${says}: the first line, 1-based, of what is cited.` },
      description: { type: 'string', description: `${says}: what the cited code does for the goal.` },
    },
    required: ['path', 'line', 'description'],
  };
}

describe('describeShapesOnce: a repeated object shape is described at its first field only', () => {
  const schema = (): Node => ({
    type: 'object',
    properties: {
      merged: { type: 'array', items: reference('merged'), description: 'Merged references.' },
      perQuery: {
        type: 'array',
        items: { type: 'object', properties: { found: { type: 'array', items: reference('found') } } },
      },
      small: { type: 'object', properties: { a: { type: 'string', description: 'A.' } } },
      smallAgain: { type: 'object', properties: { a: { type: 'string', description: 'A.' } } },
    },
  });

  it("keeps the later copy's fields and rules, drops their descriptions and names the field that describes them", () => {
    const sent = describeShapesOnce(schema());
    const first = prop(sent, 'properties', 'merged', 'items');
    assert.match(String(prop(first, 'properties', 'path')['description']), /^merged:/);
    const later = prop(sent, 'properties', 'perQuery', 'items', 'properties', 'found', 'items');
    assert.equal(later['description'], 'Fields as described at `merged[]`.');
    assert.deepEqual(later['required'], ['path', 'line', 'description']);
    assert.deepEqual(prop(later, 'properties', 'path'), { type: 'string', minLength: 1 });
    assert.deepEqual(prop(later, 'properties', 'line'), { type: 'integer', minimum: 1 });
    // A field named "description" is a field, not a description: it stays.
    assert.deepEqual(prop(later, 'properties', 'description'), { type: 'string' });
  });

  it('repeats a shape whose descriptions are shorter than the pointer would save, and never changes its input', () => {
    const given = schema();
    const before = JSON.stringify(given);
    const sent = describeShapesOnce(given);
    assert.deepEqual(prop(sent, 'properties', 'smallAgain'), prop(given, 'properties', 'smallAgain'));
    assert.ok(JSON.stringify({ a: { description: 'A.' } }).length < DESCRIBED_ONCE_MIN_CHARS);
    assert.equal(JSON.stringify(given), before);
  });

  it('leaves a shape with other fields or rules alone', () => {
    const other = reference('other');
    prop(other, 'properties', 'line')['minimum'] = 0;
    const sent = describeShapesOnce({
      type: 'object',
      properties: { first: reference('first'), second: other },
    });
    assert.match(String(prop(sent, 'properties', 'second', 'properties', 'line')['description']), /^other:/);
  });
});

describe('jsonSchemaOf: what a request sends once', () => {
  it("sends no root description (the request's tool or format heading says it) and one description per shape", () => {
    const request = discoveryCollectorRequest({
      inputIds: ['ctx-1'],
      agentIds: ['discovery-1'],
      files: new Set(['src/app.ts']),
      queryIds: ['q-1'],
    });
    const sent = jsonSchemaOf(request.schema);
    assert.ok(request.schema.description, 'the zod schema keeps its description for the published schema');
    assert.equal(sent['description'], undefined);
    const results = prop(sent, 'properties', 'queryFindings', 'items', 'properties', 'results', 'items');
    assert.equal(results['description'], 'Fields as described at `unifiedCodeMap.deduplicatedReferences[]`.');
  });
});
