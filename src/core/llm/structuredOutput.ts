import { z } from 'zod';
import {
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
  type ToolDefinition,
} from './languageModel';
import { extractJson } from './jsonExtraction';
import { cloneJson } from './replyNormalizing';
import { collectReply, type CollectedReply } from './modelCall';
import type { Stopwatch, UsageMeter } from './usage';
import { describeIssues } from './validationIssues';

/**
 * Deterministic fixes to a reply before it is validated, where the intent is clear (drop a duplicate,
 * drop a field that must be absent, order a reversed range). It receives the reply as the model sent it,
 * must not throw on any shape, and calls `note` once per change so the change can be logged.
 */
export type ReplyNormalizer = (reply: unknown, note: (change: string) => void) => unknown;

export interface StructuredRequest<T> {
  /**
   * The zod schema the reply must satisfy; its JSON Schema is what the model is asked for, so every rule
   * it can express belongs in it (build it per request when valid values depend on the moment).
   */
  readonly schema: z.ZodType<T>;
  /** Runs on the reply before validation; see ReplyNormalizer. */
  readonly normalize?: ReplyNormalizer;
  /** Receives what `normalize` changed in an accepted reply (for the log). */
  readonly onNormalized?: (changes: readonly string[]) => void;
  /** Tool name (when the model supports tools) and label in error messages, e.g. "select_personas". */
  readonly name: string;
  readonly description: string;
  /** The rendered prompt. */
  readonly messages: readonly ChatMessage[];
  /** Repairs after the first attempt (default 2). */
  readonly maxRepairs?: number;
  readonly usage?: UsageMeter;
  /** Measures latency for `usage`; defaults to `performance.now`. */
  readonly stopwatch?: Stopwatch;
}

const DEFAULT_MAX_REPAIRS = 2;

/** Heading of the fenced-JSON instruction; scripted test models route on it. */
export const RESPONSE_FORMAT_HEADING = '## Response format: ';

/** The JSON Schema a model is asked to fill in (input side: defaults may be omitted by the model). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // Converting is costly and sits on every request's critical path; schemas are immutable, so cache per schema.
  const cached = jsonSchemaCache.get(schema);
  if (cached) return cached;
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  jsonSchemaCache.set(schema, jsonSchema);
  return jsonSchema;
}
const jsonSchemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

function formatInstruction(name: string, description: string, jsonSchema: object): ChatMessage {
  const text = [
    `${RESPONSE_FORMAT_HEADING}${name}`,
    description,
    'Reply with exactly one JSON object that conforms to the JSON Schema below, inside a single ```json fenced code block. Do not write anything outside the code block.',
    '',
    'JSON Schema:',
    '```json',
    JSON.stringify(jsonSchema, null, 2),
    '```',
  ].join('\n');
  return { role: 'user', content: text };
}

/** One attempt's outcome: the validated value, or what was wrong and how to show the reply back. */
type Attempt<T> =
  | { readonly ok: true; readonly value: T; readonly changes: readonly string[] }
  | { readonly ok: false; readonly issues: readonly string[]; readonly followUp: readonly ChatMessage[] };

function toolInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const parsed = extractJson(input);
  return parsed.ok ? parsed.value : input;
}

function repairRequest(issues: readonly string[], useTool: boolean, name: string): string {
  const how = useTool
    ? `Call the \`${name}\` tool again with corrected input.`
    : 'Reply again with the corrected JSON object in a single ```json fenced code block.';
  return `Your reply did not match the required format for "${name}":\n${issues.map(i => `- ${i}`).join('\n')}\n${how}`;
}

/** Applies the normalizer; a normalizer that throws is a bug, so the reply is then validated as sent. */
function normalized(value: unknown, normalize: ReplyNormalizer | undefined): { value: unknown; changes: string[] } {
  const changes: string[] = [];
  if (normalize === undefined) return { value, changes };
  try {
    return { value: normalize(cloneJson(value), change => changes.push(change)), changes };
  } catch {
    return { value, changes: [] };
  }
}

function evaluate<T>(request: StructuredRequest<T>, reply: CollectedReply, useTool: boolean): Attempt<T> {
  const { schema, name } = request;
  const call = reply.toolCalls.find(c => c.name === name) ?? reply.toolCalls[0];
  const extracted = call ? { ok: true as const, value: toolInput(call.input) } : extractJson(reply.text);
  let issues: readonly string[];
  if (!extracted.ok) {
    issues =
      useTool && reply.text.trim() !== ''
        ? [`No call to the \`${name}\` tool was made. ${extracted.problem}`]
        : [extracted.problem];
  } else {
    const fixed = normalized(extracted.value, request.normalize);
    const parsed = schema.safeParse(fixed.value);
    if (parsed.success) return { ok: true, value: parsed.data, changes: fixed.changes };
    issues = describeIssues(parsed.error.issues);
  }
  const text = repairRequest(issues, useTool, name);
  if (call) {
    // A tool call must be answered by its result, or APIs reject the conversation.
    return {
      ok: false,
      issues,
      followUp: [
        { role: 'assistant', content: [...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []), call] },
        { role: 'user', content: [{ kind: 'toolResult', callId: call.callId, content: `Error:\n${text}` }] },
      ],
    };
  }
  return {
    ok: false,
    issues,
    followUp: [
      { role: 'assistant', content: reply.text.trim() === '' ? '(empty reply)' : reply.text },
      { role: 'user', content: text },
    ],
  };
}

/**
 * Asks the model for a value matching `schema`: through one required tool call when the model
 * supports tools, otherwise as a fenced JSON block. Validates with zod and, on a malformed reply,
 * sends the issues back and retries up to `maxRepairs` times. Throws CancelledError on
 * cancellation (never retried) and LanguageModelFailure otherwise ('malformedReply' once repairs run out).
 */
export async function requestStructured<T>(
  model: LanguageModel,
  request: StructuredRequest<T>,
  token: CancellationSignal,
): Promise<T> {
  throwIfCancelled(token);
  const jsonSchema = jsonSchemaOf(request.schema);
  const useTool = model.supportsToolCalling;
  const tool: ToolDefinition = { name: request.name, description: request.description, inputSchema: jsonSchema };
  let messages: readonly ChatMessage[] = useTool
    ? request.messages
    : [...request.messages, formatInstruction(request.name, request.description, jsonSchema)];
  const attempts = (request.maxRepairs ?? DEFAULT_MAX_REPAIRS) + 1;
  let lastIssues: readonly string[] = [];

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const modelRequest: ModelRequest = useTool ? { messages, tools: [tool], toolMode: 'required' } : { messages };
    const reply = await collectReply(model, modelRequest, token, {
      usage: request.usage,
      stopwatch: request.stopwatch,
    });
    const outcome = evaluate(request, reply, useTool);
    if (outcome.ok) {
      if (outcome.changes.length > 0) request.onNormalized?.(outcome.changes);
      return outcome.value;
    }
    lastIssues = outcome.issues;
    messages = [...messages, ...outcome.followUp];
  }

  throw new LanguageModelFailure(
    'malformedReply',
    `${request.name}: the model's reply did not match the expected format after ${attempts} attempts: ${lastIssues.slice(0, 3).join('; ')}`,
  );
}
