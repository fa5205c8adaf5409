import assert from 'node:assert/strict';
import { z } from 'zod';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { LISTED_ONCE_MIN_CHARS, spellListsOnce } from '../../../../src/core/llm/schemaLists';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';
import { discoveryReportRequest } from '../../../../src/core/plan/drafts/discoveryReportRequest';
import { ScriptedModel, toolCallReply } from '../../../support/scriptedModel';

const FILES = Array.from({ length: 30 }, (_, i) => `src/area${i}/module${i}.ts`);
const SHORT = ['a', 'b', 'c'];

type Node = Record<string, unknown>;
const prop = (node: unknown, ...path: string[]): Node => path.reduce<Node>((at, key) => at[key] as Node, node as Node);

describe('spellListsOnce: a long value list is spelled out at its first field only', () => {
  const schema = () => ({
    type: 'object',
    properties: {
      refs: { type: 'array', items: { type: 'object', properties: { path: { type: 'string', enum: FILES } } } },
      scores: { type: 'object', propertyNames: { type: 'string', enum: FILES }, additionalProperties: {} },
      node: { anyOf: [{ type: 'string', enum: FILES, description: 'A node file.' }, { type: 'null' }] },
      grade: { type: 'string', enum: SHORT },
      again: { type: 'string', enum: SHORT },
    },
  });

  it('keeps the first listing and points every later field with the same list at it, by the path a model reads', () => {
    assert.ok(JSON.stringify(FILES).length >= LISTED_ONCE_MIN_CHARS);
    const sent = spellListsOnce(schema());
    assert.deepEqual(prop(sent, 'properties', 'refs', 'items', 'properties', 'path')['enum'], FILES);
    const keys = prop(sent, 'properties', 'scores', 'propertyNames');
    assert.equal(keys['enum'], undefined);
    assert.equal(keys['description'], 'One of the values listed for `refs[].path`.');
    const option = (prop(sent, 'properties', 'node')['anyOf'] as Node[])[0] as Node;
    assert.equal(option['enum'], undefined);
    assert.equal(option['description'], 'A node file. One of the values listed for `refs[].path`.');
    assert.equal(JSON.stringify(sent).split('src/area7/module7.ts').length - 1, 1, 'each file is sent once');
  });

  it('repeats a short list (the pointer would cost as much) and never changes the schema it was given', () => {
    const given = schema();
    const before = JSON.stringify(given);
    const sent = spellListsOnce(given);
    assert.deepEqual(prop(sent, 'properties', 'again')['enum'], SHORT);
    assert.equal(JSON.stringify(given), before);
  });

  it('names the first field of each distinct list, under keys and values of a record too', () => {
    const other = FILES.map(file => `${file}.bak`);
    const sent = spellListsOnce({
      type: 'object',
      properties: {
        byFile: {
          type: 'object',
          propertyNames: { type: 'string', enum: other },
          additionalProperties: { enum: FILES },
        },
        first: { type: 'string', enum: other },
        second: { type: 'string', enum: FILES },
      },
    });
    assert.equal(prop(sent, 'properties', 'first')['description'], 'One of the values listed for `keys of byFile`.');
    assert.equal(prop(sent, 'properties', 'second')['description'], 'One of the values listed for `values of byFile`.');
  });
});

describe('a request whose schema lists values once', () => {
  const Pair = z.object({
    from: z.enum(FILES as [string, ...string[]]).describe('Where it starts.'),
    to: z.enum(FILES as [string, ...string[]]).describe('Where it ends.'),
  });

  it('still holds every field to the list: a value outside it at a pointed-at field is repaired', async () => {
    const model = new ScriptedModel((_request, i) =>
      toolCallReply('pair', { from: FILES[0], to: i === 0 ? 'src/nowhere.ts' : FILES[1] }),
    );
    const reply = await requestStructured(
      model,
      { schema: Pair, name: 'pair', description: 'A pair of files.', messages: [{ role: 'user', content: 'Go.' }] },
      neverCancelled,
    );
    assert.deepEqual(reply, { from: FILES[0], to: FILES[1] });
    assert.equal(model.requests.length, 2);
    const sent = model.requests[0]?.tools[0]?.inputSchema as Node;
    assert.equal(prop(sent, 'properties', 'to')['description'], 'Where it ends. One of the values listed for `from`.');
    assert.equal(prop(sent, 'properties', 'to')['enum'], undefined);
  });

  it("a discovery report's schema names each workspace file once, where it named it at five fields", async () => {
    const files = new Set(Array.from({ length: 144 }, (_, i) => `src/folder${i % 9}/file${i}.ts`));
    const model = new ScriptedModel(() => 'not json');
    const draft = discoveryReportRequest(files);
    await requestStructured(
      model,
      { schema: draft.schema, name: 'discovery_report', description: 'R.', messages: [], maxRepairs: 0 },
      neverCancelled,
    ).catch(() => undefined);
    const sent = JSON.stringify(model.requests[0]?.tools[0]?.inputSchema);
    assert.equal(sent.split('"src/folder3/file12.ts"').length - 1, 1);
    // expectedResultPaths, groundTruthRelevance's keys and a diagram node's file (relevanceScores is not asked for).
    assert.equal(sent.split('One of the values listed for `fileReferences[].filePath`').length - 1, 3);
  });
});
