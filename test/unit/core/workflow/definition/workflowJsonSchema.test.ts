import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// ajv (draft-07 by default) comes with the dev tooling (eslint, vsce); only this test uses it.
import Ajv from 'ajv';
import { parse } from 'yaml';
import {
  WORKFLOW_SCHEMA_FILE,
  WORKFLOW_SCHEMA_ID,
  workflowJsonSchema,
  workflowJsonSchemaText,
} from '../../../../../src/core/workflow/definition/workflowJsonSchema';
import { WORKFLOW_TEMPLATE } from '../../../../../src/core/workflow/definition/workflowTemplate';
import { undescribedProperties } from '../../../../support/jsonSchemaChecks';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');

type Json = { readonly [key: string]: unknown };

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(workflowJsonSchema());
}

describe('workflow JSON Schema', () => {
  it(`${WORKFLOW_SCHEMA_FILE} matches the zod schema (run \`npx tsx scripts/generateSchemas.ts\` if this fails)`, () => {
    const onDisk = readFileSync(join(ROOT, WORKFLOW_SCHEMA_FILE), 'utf8');
    assert.ok(onDisk === workflowJsonSchemaText(), `${WORKFLOW_SCHEMA_FILE} is stale`);
  });

  it('is draft-07 with the workflow $id, a title and a description, inlined (no $ref)', () => {
    const schema = workflowJsonSchema();
    assert.equal(schema['$schema'], 'http://json-schema.org/draft-07/schema#');
    assert.equal(schema['$id'], WORKFLOW_SCHEMA_ID);
    assert.equal(schema['$id'], 'urn:council:schema:workflow:1');
    assert.equal(schema['title'], 'Council workflow');
    assert.match(String(schema['description']), /spec 002/);
    assert.ok(!JSON.stringify(schema).includes('$ref'));
  });

  it('describes every field (the hover documentation), in markdown too, and each value of the enums', () => {
    const schema = workflowJsonSchema();
    assert.deepEqual(undescribedProperties(schema), []);
    const text = JSON.stringify(schema);
    assert.equal(text.match(/"markdownDescription":/g)?.length, text.match(/"description":"/g)?.length);
    const enums: Json[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray((node as Json)['enum'])) enums.push(node as Json);
      Object.values(node).forEach(walk);
    };
    walk(schema);
    assert.ok(enums.length >= 5);
    for (const node of enums)
      assert.equal(
        (node['markdownEnumDescriptions'] as unknown[] | undefined)?.length,
        (node['enum'] as unknown[]).length,
        JSON.stringify(node['enum']),
      );
  });

  it('the template and the built-in plan.yaml validate against it', () => {
    const validate = validator();
    for (const [name, text] of [
      ['template', WORKFLOW_TEMPLATE],
      ['plan.yaml', readFileSync(join(ROOT, 'workflows', 'plan.yaml'), 'utf8')],
    ] as const) {
      assert.ok(validate(parse(text)), `${name}: ${JSON.stringify(validate.errors, null, 2)}`);
    }
  });

  it('rejects what the editor should mark: unknown keys, bad enums, a custom checkpoint without options', () => {
    const validate = validator();
    const base = {
      name: 'x',
      description: 'd',
      phases: [{ id: 'a', behavior: 'parallel', subagents: [{ type: 'code-scout' }] }],
    };
    assert.ok(validate(base), JSON.stringify(validate.errors));
    const withPhase = (extra: object) => ({ ...base, phases: [{ ...base.phases[0], ...extra }] });
    assert.ok(!validate(withPhase({ subagent: [] })), 'unknown key');
    assert.ok(!validate(withPhase({ behavior: 'paralel' })), 'bad behavior');
    assert.ok(!validate(withPhase({ checkpoint: { prompt: 'p' } })), 'no options');
    assert.ok(!validate(withPhase({ gap_check: { max_iterations: 11, script: 'x' } })), 'too many iterations');
    assert.ok(!validate({ ...base, name: 'Not Kebab' }), 'name');
    // A subagent's config passes unknown keys through to the agent type.
    assert.ok(
      validate(withPhase({ subagents: [{ type: 'code-scout', config: { focus: 'api', context: { a: 1 } } }] })),
      JSON.stringify(validate.errors),
    );
  });

  it('package.json hands it to the YAML extension for .council/workflows, and the .vsix ships it', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { yamlValidation?: { fileMatch: string[]; url: string }[] };
    };
    assert.deepEqual(manifest.contributes.yamlValidation, [
      { fileMatch: ['.council/workflows/*.yaml', '.council/workflows/*.yml'], url: `./${WORKFLOW_SCHEMA_FILE}` },
    ]);
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes(`!${WORKFLOW_SCHEMA_FILE}`));
    assert.ok(ignore.includes('!workflows/**'));
  });
});
