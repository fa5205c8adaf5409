/**
 * The JSON Schema of workflow files (`schemas/workflow.schema.json`), built from the zod schema in
 * `workflowSchema.ts` (the source of truth). `package.json` hands it to the YAML extension (redhat.vscode-yaml)
 * through `contributes.yamlValidation` for `.council/workflows/*.yaml`, so the editor completes keys, shows each
 * field's description on hover and marks structural mistakes while typing; `parseWorkflow` adds the rules between
 * fields when the workflow is loaded.
 *
 * Draft-07: the draft the YAML language server supports best. Every subschema is inlined (no `$ref`), which keeps
 * hovers and completions working in every version of the extension.
 */
import { z } from 'zod';
import { WorkflowFileSchema } from './workflowSchema';

/** The `$id` of the workflow schema; the trailing number is its major version. */
export const WORKFLOW_SCHEMA_ID = 'urn:council:schema:workflow:1';

/** Where the generated file lives in the repository (and in the .vsix). */
export const WORKFLOW_SCHEMA_FILE = 'schemas/workflow.schema.json';

type JsonObject = { [key: string]: unknown };

/**
 * Copies every `description` to `markdownDescription`: the YAML extension shows a plain description escaped (the
 * backticks literally), a markdown one rendered.
 */
function withMarkdown(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withMarkdown);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'properties' || typeof value === 'object' ? withMarkdown(value) : value;
    if (key === 'description' && typeof value === 'string' && !('markdownDescription' in node))
      out['markdownDescription'] = value;
  }
  return out;
}

/** The workflow JSON Schema as an object. */
export function workflowJsonSchema(): JsonObject {
  // `io: 'input'`: fields with a default (execution_mode, max_iterations, …) are optional in the file.
  const { $schema, ...body } = z.toJSONSchema(WorkflowFileSchema, {
    target: 'draft-07',
    io: 'input',
    reused: 'inline',
  }) as JsonObject;
  const { description: _description, ...rest } = body;
  const description =
    'A Council workflow (spec 002), in `.council/workflows/<name>.yaml`: phases that spawn agents in a strict, loose or adaptive ' +
    'execution mode, with checkpoints, gap checks, skills and a finalization template. Run it with `@council /workflow <name>`.';
  return {
    $schema,
    $id: WORKFLOW_SCHEMA_ID,
    title: 'Council workflow',
    description,
    markdownDescription: description,
    ...(withMarkdown(rest) as JsonObject),
  };
}

/** The exact text of `schemas/workflow.schema.json`. */
export function workflowJsonSchemaText(): string {
  return `${JSON.stringify(workflowJsonSchema(), null, 2)}\n`;
}
