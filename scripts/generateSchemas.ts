/**
 * Writes the pipeline's JSON Schemas to `schemas/pipeline/` and the workflow file schema to
 * `schemas/workflow.schema.json` and the `council` command's config schema to `schemas/council-config.schema.json`,
 * from the zod schemas (the source of truth).
 * Run: npx tsx scripts/generateSchemas.ts — unit tests fail while `schemas/` is stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPublishedSchemas } from '../src/core/plan/schemas/publish';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from '../src/cli/config/councilConfig';
import { WORKFLOW_SCHEMA_FILE, workflowJsonSchemaText } from '../src/core/workflow/definition/workflowJsonSchema';

const outDir = join(__dirname, '..', 'schemas', 'pipeline');
const files = buildPublishedSchemas();
const expected = new Set(files.map(file => file.file));

mkdirSync(outDir, { recursive: true });
for (const existing of readdirSync(outDir)) {
  // Schemas dropped from the catalog must not linger as published files.
  if (!expected.has(existing)) rmSync(join(outDir, existing));
}
for (const file of files) writeFileSync(join(outDir, file.file), file.content);
console.log(`Wrote ${files.length} files to ${outDir}`);

const workflowSchemaPath = join(__dirname, '..', WORKFLOW_SCHEMA_FILE);
writeFileSync(workflowSchemaPath, workflowJsonSchemaText());
console.log(`Wrote ${workflowSchemaPath}`);

const configSchemaPath = join(__dirname, '..', CONFIG_SCHEMA_FILE);
writeFileSync(configSchemaPath, configJsonSchemaText());
console.log(`Wrote ${configSchemaPath}`);
