import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { fromPortableReply, NOT_ASKED, portableSchema } from '../../../../src/core/llm/portableSchema';
import { jsonSchemaOf, replyInFullShape } from '../../../../src/core/llm/structuredOutput';
import { nonPortable } from '../../../support/portableSchemaRules';
import { everySentSchema, WORKSPACE_SIZES } from '../../../support/sentSchemas';

describe('portable schemas: every schema Council sends is in the subset every model family accepts', () => {
  const schemas = everySentSchema();

  it('covers the council, the personas, /plan at every workspace size, and the workspace and history tools', () => {
    const labels = schemas.map(s => s.label);
    for (const name of [
      'select_personas',
      'open_session',
      'propose_clarifying_questions',
      'moderate_cycle',
      'give_conclusion',
    ])
      assert.ok(labels.includes(name), name);
    assert.ok(labels.some(label => label.startsWith('contribute_to_debate')));
    for (const size of WORKSPACE_SIZES)
      for (const name of [
        'discovery_report',
        'discovery_collector_result',
        'planning_agent_result',
        'planning_collector_result',
        'ticket_agent_result',
        'ticket_collector_result',
        'route_context',
      ])
        assert.ok(labels.includes(`${name} (${size} files)`), `${name} at ${size} files`);
    for (const name of [
      'list_files',
      'read_file_range',
      'search_text',
      'history_trace',
      'history_list',
      'history_search',
      'history_item',
    ])
      assert.ok(labels.includes(`tool ${name}`), name);
  });

  for (const { label, schema } of schemas) {
    it(`${label}: no non-portable keyword`, () => {
      assert.deepEqual(nonPortable(schema), []);
      assert.equal((schema as { type?: unknown }).type, 'object', 'a tool input is an object');
    });
  }

  it('the rules catch what Gemini rejects', () => {
    const bad = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'string', const: 'x' },
        c: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        d: { type: 'array', uniqueItems: true },
        e: { type: 'object' },
        f: { type: 'integer', enum: [1, 2] },
        g: { type: 'string', pattern: '\\S' },
        h: { type: 'number', exclusiveMinimum: 0 },
        i: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
      },
    };
    const found = nonPortable(bad).join('\n');
    for (const expected of [
      '$: $schema',
      '$: additionalProperties',
      '$.a: type',
      '$.b: const',
      '$.c: oneOf',
      '$.c: no type',
      '$.d: uniqueItems',
      '$.d: array without items',
      '$.e: object without properties',
      '$.f: non-string enum',
      '$.g: unanchored pattern',
      '$.h: exclusiveMinimum',
      '$.i: propertyNames',
    ])
      assert.ok(found.includes(expected), `${expected} in\n${found}`);
    assert.deepEqual(nonPortable(portableSchema(bad)), []);
  });
});

describe('portableSchema', () => {
  it('sends unions as anyOf of typed branches, const as a one-value enum, not blank as minLength 1', () => {
    const sent = jsonSchemaOf(
      z.object({
        decision: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('advance'), why: z.string().regex(/\S/) }),
          z.object({ kind: z.literal('rerun'), ids: z.array(z.string()) }),
        ]),
        note: z.string().nullable(),
        code: z.string().regex(/[A-Z]+-\d+/),
      }),
    );
    const decision = (sent['properties'] as Record<string, Record<string, unknown>>)['decision']!;
    const branches = decision['anyOf'] as Record<string, Record<string, Record<string, unknown>>>[];
    assert.equal(decision['oneOf'], undefined);
    assert.deepEqual(branches[0]!['properties']!['kind'], { type: 'string', enum: ['advance'] });
    assert.deepEqual(branches[0]!['properties']!['why'], { type: 'string', minLength: 1 });
    const properties = sent['properties'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(properties['note'], { type: 'string', nullable: true });
    const pattern = new RegExp(String(properties['code']!['pattern']));
    assert.ok(pattern.test('see T-12 here') && !pattern.test('none'), 'anchored, same meaning as unanchored');
  });

  it('sends a map as a list of {key, value} entries and reads the reply back as the map zod checks', () => {
    const schema = z.object({ scores: z.record(z.enum(['a.ts', 'b.ts']), z.number().min(0).max(1)) });
    const sent = jsonSchemaOf(schema);
    const scores = (sent['properties'] as Record<string, Record<string, unknown>>)['scores']!;
    assert.equal(scores['type'], 'array');
    assert.equal(scores['description'], 'Each key at most once.', 'the entries say their shape; the rule is said');
    assert.deepEqual((scores['items'] as Record<string, unknown>)['required'], ['key', 'value']);
    const notes: string[] = [];
    const reply = {
      scores: [
        { key: 'a.ts', value: 0.5 },
        { key: 'b.ts', value: 0.1 },
        { key: 'a.ts', value: 0.7 },
      ],
    };
    const back = replyInFullShape(schema, reply, 'shape', note => notes.push(note));
    assert.deepEqual(schema.parse(back), { scores: { 'a.ts': 0.7, 'b.ts': 0.1 } });
    assert.deepEqual(notes, ['kept the last value of the repeated key "a.ts" in `scores`']);
  });

  it('applies the rules said only in words after the normalizer: distinct items, a fixed non-string value', () => {
    const schema = z.object({ ids: z.array(z.string()).meta({ uniqueItems: true }), changed: z.literal(false) });
    const notes: string[] = [];
    const back = fromPortableReply({ ids: ['a', 'b', 'a'], changed: true }, z.toJSONSchema(schema), 'rules', note =>
      notes.push(note),
    );
    assert.deepEqual(schema.parse(back), { ids: ['a', 'b'], changed: false });
    assert.deepEqual(notes, ['dropped 1 repeated item(s) of `ids`', 'set `changed` to false, its only allowed value']);
  });

  it('leaves out a field Council fills itself (meta notAsked), at any depth, and takes it off the required list', () => {
    const derived = z.string().meta({ [NOT_ASKED]: 'Council derives it.' });
    const schema = z.object({
      title: z.string(),
      kind: derived,
      items: z.array(z.object({ name: z.string(), kind: derived.optional() })),
    });
    const sent = jsonSchemaOf(schema) as {
      properties: Record<string, { items?: { properties: object; required: string[] } }>;
      required: string[];
    };
    assert.deepEqual(Object.keys(sent.properties), ['title', 'items']);
    assert.deepEqual(sent.required, ['title', 'items']);
    assert.deepEqual(Object.keys(sent.properties['items']?.items?.properties ?? {}), ['name']);
    assert.equal(schema.safeParse({ title: 't', items: [] }).success, false, 'zod still requires what it derives');
  });

  it('leaves a reply that already has the full shape as it is', () => {
    const schema = z.object({ scores: z.record(z.string(), z.number()) });
    const notes: string[] = [];
    assert.deepEqual(
      replyInFullShape(schema, { scores: { x: 1 } }, 'shape', note => notes.push(note)),
      { scores: { x: 1 } },
    );
    assert.deepEqual(notes, []);
  });
});
