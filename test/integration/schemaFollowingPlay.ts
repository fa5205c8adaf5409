import { createGeneratorSync } from 'json-schema-faker';
import { withListsReadBack } from '../support/schemaReadBack';
import type { FixtureApi, ScriptedReply, ScriptedRequest } from './fixture/src/api';

/**
 * Makes the fixture's models answer like an independent model that knows nothing about Council but what
 * each request says: a structured request gets a seeded random instance of exactly the JSON Schema sent
 * (the required tool's `inputSchema`, or the schema in the fenced-JSON instruction, read as its descriptions say:
 * `schemaReadBack.ts`); anything else gets
 * a line of prose. `hang` makes the first request for one tool wait until the user presses Stop.
 */
export interface SchemaFollowingPlay {
  /** Requests per tool name ('prose' for free text), since the last `reset`. */
  calls(tool: string): number;
  /** Resolves when the hung request has arrived (the moment to press Stop). */
  readonly hung: Promise<void>;
  /** Stop hanging: later requests for the tool are answered. */
  release(): void;
}

export interface SchemaFollowingOptions {
  readonly seed: number;
  /** Hang the `nth` (1-based, default 1) request whose tool is `tool`. */
  readonly hang?: { readonly tool: string; readonly nth?: number };
  /** Replace the generated value for a tool (still an instance of its schema) by another instance. */
  readonly choose?: (tool: string, generate: () => unknown) => unknown;
}

const FORMAT = /## Response format: (\S+)[\s\S]*?JSON Schema:\n```json\n([\s\S]*?)\n```/;

function structuredTarget(
  request: ScriptedRequest,
): { readonly tool: string; readonly schema: object; readonly asTool: boolean } | undefined {
  const tool = request.toolMode === 'required' ? request.tools[0] : undefined;
  if (tool?.inputSchema) return { tool: tool.name, schema: tool.inputSchema, asTool: true };
  for (const message of [...request.messages].reverse()) {
    const match = FORMAT.exec(message.text);
    if (match?.[1] && match[2]) return { tool: match[1], schema: JSON.parse(match[2]) as object, asTool: false };
  }
  return undefined;
}

/** Installs the schema-following responder on the fixture. */
export function playSchemaFollowing(api: FixtureApi, options: SchemaFollowingOptions): SchemaFollowingPlay {
  const generator = createGeneratorSync({ seed: options.seed, optionalsProbability: 0.5, maxDefaultItems: 4 });
  const counts = new Map<string, number>();
  let hanging = options.hang !== undefined;
  let reached = (): void => {};
  const hung = new Promise<void>(resolve => (reached = resolve));
  api.setResponder((request): ScriptedReply => {
    const target = structuredTarget(request);
    const tool = target?.tool ?? 'prose';
    const seen = (counts.get(tool) ?? 0) + 1;
    counts.set(tool, seen);
    if (hanging && options.hang?.tool === tool && seen === (options.hang.nth ?? 1)) {
      hanging = false;
      reached();
      return { waitForCancellation: true };
    }
    if (target === undefined) return 'I have read enough to answer; here is my view in one paragraph.';
    const schema = withListsReadBack(target.schema);
    const generate = (): unknown => generator.generate(schema as never);
    const value = options.choose ? options.choose(tool, generate) : generate();
    return target.asTool
      ? { toolCall: { name: tool, input: value as object } }
      : '```json\n' + JSON.stringify(value) + '\n```';
  });
  return {
    calls: tool => counts.get(tool) ?? 0,
    hung,
    release: () => {
      hanging = false;
    },
  };
}
