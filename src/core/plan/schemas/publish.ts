import { z } from 'zod';
import { PIPELINE_SCHEMAS } from './catalog';
import { SCHEMA_VERSION } from './version';

/** The `$id` of a published schema; carries the schema version. */
function schemaIdOf(name: string): string {
  return `urn:council:schema:pipeline:${name}:${SCHEMA_VERSION}`;
}

type JsonObject = { [key: string]: unknown };

/** A root that is only `$ref` to one of its own `$defs` is unwrapped, so the file reads as the thing it names. */
function unwrapRootRef(json: JsonObject): JsonObject {
  const { $ref, $defs, ...rest } = json;
  const defs = ($defs ?? {}) as JsonObject;
  if (typeof $ref !== 'string' || !$ref.startsWith('#/$defs/')) return json;
  const name = $ref.slice('#/$defs/'.length);
  const { [name]: body, ...otherDefs } = defs;
  if (body === undefined || JSON.stringify(otherDefs).includes(`"${$ref}"`)) return json;
  return { ...rest, ...(body as JsonObject), ...(Object.keys(otherDefs).length > 0 ? { $defs: otherDefs } : {}) };
}

/** The JSON Schema of one catalog entry, with `$id` and title. */
function publishedJsonSchema(name: string, schema: z.ZodType): JsonObject {
  const { $schema, ...body } = unwrapRootRef(z.toJSONSchema(schema) as JsonObject);
  return { $schema, $id: schemaIdOf(name), title: name, ...body };
}

const text = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Every file of `schemas/pipeline/`: one `<name>.schema.json` per catalog entry plus `index.json`
 * (name -> file -> version). Pure, so a test can compare it with the files on disk.
 */
export function buildPublishedSchemas() {
  const files = PIPELINE_SCHEMAS.map(entry => ({
    file: `${entry.name}.schema.json`,
    content: text(publishedJsonSchema(entry.name, entry.schema)),
  }));
  const index = {
    schemaVersion: SCHEMA_VERSION,
    schemas: PIPELINE_SCHEMAS.map(entry => ({
      name: entry.name,
      file: `${entry.name}.schema.json`,
      version: SCHEMA_VERSION,
      $id: schemaIdOf(entry.name),
      role: entry.role,
    })),
  };
  return [...files, { file: 'index.json', content: text(index) }];
}
