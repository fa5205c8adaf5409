import type { ModelRequest } from '../../src/core/llm/languageModel';
import { RESPONSE_FORMAT_HEADING } from '../../src/core/llm/structuredOutput';
import { messageText } from '../../src/core/llm/usage';
import { nonPortable } from './portableSchemaRules';
import { withListsReadBack } from './schemaReadBack';
import { ScriptedModel, type Responder, type ScriptedReply } from './scriptedModel';

/**
 * A model that knows nothing about Council except what each request tells it: it answers a structured
 * request with a random instance of exactly the JSON Schema sent (and, as Gemini does, fails a request whose schema
 * is outside the portable subset) (the required tool's `inputSchema`, or
 * the schema in the fenced-JSON instruction, its fields' pointers to a list given elsewhere followed) and a
 * free-text request with a paragraph. Seeded, so a failing instance can be reproduced.
 */
export interface SchemaFollowingOptions {
  readonly seed: number;
  /** Probability that an optional property is present (default 0.5). */
  readonly optionalsProbability?: number;
  /** Text for requests that ask for prose. */
  readonly prose?: string;
  /**
   * Nesting depth the generator fills in (json-schema-faker's default is 5). Below it the generator emits
   * placeholders (0, "", []) that break `minimum`/`minItems`, i.e. no longer instances of the schema, so deep
   * schemas need a larger value.
   */
  readonly maxDepth?: number;
}

/** Per tool name: requests seen, and those that were repairs (they answer an error). */
export interface SchemaRequestCounts {
  readonly requests: Map<string, number>;
  readonly repairs: Map<string, number>;
}

const FORMAT_SCHEMA = /JSON Schema:\n```json\n([\s\S]*?)\n```/;

function formatSchema(request: ModelRequest): { name: string; schema: object } | undefined {
  for (const message of [...request.messages].reverse()) {
    const text = messageText(message);
    const heading = text.indexOf(RESPONSE_FORMAT_HEADING);
    const match = FORMAT_SCHEMA.exec(text);
    if (heading >= 0 && match?.[1] !== undefined) {
      const name = text.slice(heading + RESPONSE_FORMAT_HEADING.length).split('\n')[0] ?? 'reply';
      return { name, schema: JSON.parse(match[1]) as object };
    }
  }
  return undefined;
}

function isRepair(request: ModelRequest): boolean {
  const last = request.messages.at(-1);
  if (last === undefined) return false;
  const text = messageText(last);
  return /did not match the required format|rejected by validation/.test(text);
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

type GeneratorFactory = (options: {
  seed: number;
  optionalsProbability: number;
  maxDefaultItems: number;
  maxDepth?: number;
}) => {
  generate(schema: never): unknown;
};
let createGenerator: GeneratorFactory | undefined;

/** Loads json-schema-faker (ESM-only, so it cannot be required); call once before building models. */
export async function loadSchemaFaker(): Promise<void> {
  const faker = (await import('json-schema-faker')) as { createGeneratorSync: GeneratorFactory };
  createGenerator = faker.createGeneratorSync;
}

/** A Responder that answers as SchemaFollowingOptions says, counting requests and repairs per tool. */
export function schemaFollowingResponder(options: SchemaFollowingOptions): {
  responder: Responder;
  counts: SchemaRequestCounts;
} {
  if (createGenerator === undefined) throw new Error('call loadSchemaFaker() first');
  const generator = createGenerator({
    seed: options.seed,
    optionalsProbability: options.optionalsProbability ?? 0.5,
    maxDefaultItems: 4,
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  });
  const counts: SchemaRequestCounts = { requests: new Map(), repairs: new Map() };
  const responder: Responder = (request): ScriptedReply => {
    const tool = request.toolMode === 'required' ? request.tools?.[0] : undefined;
    const format = tool === undefined ? formatSchema(request) : undefined;
    const name = tool?.name ?? format?.name ?? 'prose';
    bump(counts.requests, name);
    if (isRepair(request)) bump(counts.repairs, name);
    const schema = tool?.inputSchema ?? format?.schema;
    if (schema === undefined) return options.prose ?? 'A short answer written as prose.';
    // Like Gemini, refuse a schema outside the portable subset (the whole request fails).
    const unportable = nonPortable(schema);
    if (unportable.length > 0)
      throw new Error(`400 Bad Request: ${name} is not portable: ${unportable.slice(0, 3).join('; ')}`);
    const value = generator.generate(withListsReadBack(schema) as never);
    return tool === undefined
      ? { kind: 'text', text: `\`\`\`json\n${JSON.stringify(value)}\n\`\`\`` }
      : { kind: 'toolCall', name: tool.name, input: value };
  };
  return { responder, counts };
}

/** A ScriptedModel driven by schemaFollowingResponder. */
export function schemaFollowingModel(options: SchemaFollowingOptions & { readonly supportsToolCalling?: boolean }): {
  model: ScriptedModel;
  counts: SchemaRequestCounts;
} {
  const { responder, counts } = schemaFollowingResponder(options);
  return { model: new ScriptedModel(responder, { supportsToolCalling: options.supportsToolCalling ?? true }), counts };
}
