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
import { MAX_REPAIRS_PER_REPLY } from './repairBudget';
import { isSchemaRefusal } from './modelErrors';
import { REPLY_CUT_PREFIX } from './failureMessages';
import { describeIssues } from '../zodIssues';
import { spellListsOnce } from './schemaLists';
import { describeShapesOnce } from './schemaShapes';
import { fromPortableReply, portableSchema, type PortableReplyPass } from './portableSchema';
import type { JsonObject } from './replyNormalizing';

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
  /** Repairs after the first attempt (default MAX_REPAIRS_PER_REPLY). */
  readonly maxRepairs?: number;
  /** Called when the provider refused the tool schema (its message), before the same schema is asked as fenced JSON. */
  readonly onToolRefused?: (providerMessage: string) => void;
  /** Called before each repair is sent, with the attempt about to start (2, 3…) and what was wrong. */
  readonly onRetry?: (attempt: number, issues: readonly string[]) => void;
}

/** Heading of the fenced-JSON instruction; scripted test models route on it. */
export const RESPONSE_FORMAT_HEADING = '## Response format: ';

/**
 * The JSON Schema a model is asked to fill in (input side: defaults may be omitted by the model), in the portable
 * subset every model family accepts (see portableSchema): everything Council sends as a tool schema or prints in a
 * prompt goes through here. A reply to it is turned back into the zod schema's shape by `replyInFullShape`.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return convertedSchema(schema).sent;
}

/**
 * `reply` (to jsonSchemaOf(schema)) read back against the full schema: the 'shape' pass turns maps sent as lists of
 * {key, value} entries back into maps; the 'rules' pass applies what the portable schema said only in words (a
 * fixed value, distinct items). See fromPortableReply.
 */
export function replyInFullShape(
  schema: z.ZodType,
  reply: unknown,
  pass: PortableReplyPass,
  note: (change: string) => void,
): unknown {
  return fromPortableReply(reply, convertedSchema(schema).full, pass, note);
}

function convertedSchema(schema: z.ZodType): { readonly full: JsonObject; readonly sent: JsonObject } {
  // Converting is costly and sits on every request's critical path; schemas are immutable, so cache per schema.
  const cached = jsonSchemaCache.get(schema);
  if (cached) return cached;
  const full = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  // The request's own description (the tool's, or the fenced-JSON heading's) says what the root is: not sent twice.
  const { description: _said, ...sent } = portableSchema(full);
  const converted = { full, sent: spellListsOnce(describeShapesOnce(sent)) };
  jsonSchemaCache.set(schema, converted);
  return converted;
}
const jsonSchemaCache = new WeakMap<z.ZodType, { readonly full: JsonObject; readonly sent: JsonObject }>();

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
  | {
      readonly ok: false;
      readonly issues: readonly string[];
      readonly followUp: readonly ChatMessage[];
      /** The JSON (text or tool arguments) ended early: the reply was cut at the model's output limit. */
      readonly truncated: boolean;
    };

function toolInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const parsed = extractJson(input);
  return parsed.ok ? parsed.value : input;
}

/** Most normalization changes a repair request repeats (the rest are only logged). */
const MAX_CHANGES_SHOWN = 10;

/**
 * What a repair asks. When the normalizer dropped parts of the reply before the check failed (a file that does not
 * exist, so a list came out too short), the model is told what was dropped: the issues alone would have it send the
 * same parts again.
 */
function repairRequest(issues: readonly string[], changes: readonly string[], useTool: boolean, name: string): string {
  const how = useTool
    ? `Call the \`${name}\` tool again with corrected input.`
    : 'Reply again with the corrected JSON object in a single ```json fenced code block.';
  const list = (items: readonly string[]) => items.map(item => `- ${item}`).join('\n');
  const shown = changes.slice(0, MAX_CHANGES_SHOWN);
  const dropped =
    shown.length === 0
      ? ''
      : `\nBefore checking it, Council changed your reply as follows; do not send what was dropped again:\n${list(shown)}${changes.length > shown.length ? `\n- (${changes.length - shown.length} more)` : ''}`;
  return `Your reply did not match the required format for "${name}":\n${list(issues)}${dropped}\n${how}`;
}

/**
 * Turns the reply back into the zod schema's shape (maps were sent as entry lists), then applies the normalizer;
 * a normalizer that throws is a bug, so the reply is then validated as sent.
 */
function normalized(
  schema: z.ZodType,
  sent: unknown,
  normalize: ReplyNormalizer | undefined,
): { value: unknown; changes: string[] } {
  const changes: string[] = [];
  const note = (change: string) => changes.push(change);
  const value = replyInFullShape(schema, cloneJson(sent), 'shape', note);
  if (normalize === undefined) return { value: replyInFullShape(schema, value, 'rules', note), changes };
  try {
    return { value: replyInFullShape(schema, normalize(cloneJson(value), note), 'rules', note), changes };
  } catch {
    return { value, changes: [] };
  }
}

/** Whether a tool call's arguments arrived as JSON text that ends early (cut at the output limit). */
function cutToolInput(input: unknown): boolean {
  if (typeof input !== 'string') return false;
  const parsed = extractJson(input);
  return !parsed.ok && parsed.truncated === true;
}

function evaluate<T>(request: StructuredRequest<T>, reply: CollectedReply, useTool: boolean): Attempt<T> {
  const { schema, name } = request;
  const call = reply.toolCalls.find(c => c.name === name) ?? reply.toolCalls[0];
  const extracted = call ? { ok: true as const, value: toolInput(call.input) } : extractJson(reply.text);
  let issues: readonly string[];
  let changes: readonly string[] = [];
  const truncated = call ? cutToolInput(call.input) : !extracted.ok && extracted.truncated === true;
  if (truncated) {
    issues = ["The reply was cut off at the model's output limit before the JSON was complete."];
    return { ok: false, issues, truncated, followUp: cutFollowUp(reply, call, useTool, name) };
  }
  if (!extracted.ok) {
    issues =
      useTool && reply.text.trim() !== ''
        ? [`No call to the \`${name}\` tool was made. ${extracted.problem}`]
        : [extracted.problem];
  } else {
    const fixed = normalized(schema, extracted.value, request.normalize);
    const parsed = schema.safeParse(fixed.value);
    if (parsed.success) return { ok: true, value: parsed.data, changes: fixed.changes };
    // A blank text where the schema allows no text at all says nothing: drop it rather than pay for a repair.
    const blanks: string[] = [];
    const pruned = withoutBlankStrings(fixed.value, '', blanks);
    const retried = blanks.length > 0 ? schema.safeParse(pruned) : undefined;
    if (retried?.success)
      return {
        ok: true,
        value: retried.data,
        changes: [...fixed.changes, ...blanks.map(path => `dropped the blank \`${path}\``)],
      };
    issues = describeIssues(parsed.error.issues, '(root)', { schema, data: fixed.value });
    changes = fixed.changes;
  }
  const text = repairRequest(issues, changes, useTool, name);
  if (call) {
    // A tool call must be answered by its result, or APIs reject the conversation.
    return {
      ok: false,
      issues,
      truncated,
      followUp: [
        { role: 'assistant', content: [...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []), call] },
        { role: 'user', content: [{ kind: 'toolResult', callId: call.callId, content: `Error:\n${text}` }] },
      ],
    };
  }
  return {
    ok: false,
    issues,
    truncated,
    followUp: [
      { role: 'assistant', content: reply.text.trim() === '' ? '(empty reply)' : reply.text },
      { role: 'user', content: text },
    ],
  };
}

/**
 * The repair for a reply cut at the output limit: it says so and asks for the same fields, shorter. The cut text is
 * not sent back (the model would only continue it, and pay for it as input); a cut tool call must still be answered.
 */
function cutFollowUp(
  reply: CollectedReply,
  call: CollectedReply['toolCalls'][number] | undefined,
  useTool: boolean,
  name: string,
): ChatMessage[] {
  const how = useTool
    ? `Call the \`${name}\` tool again`
    : 'Reply again with the complete JSON object in a single ```json fenced code block';
  const text = `Your reply for "${name}" was cut off at your output limit before it was complete. ${how}, with the same required fields but shorter: fewer and shorter list items, one or two sentences per text field, no optional field that is not needed.`;
  if (!call) return [{ role: 'user', content: text }];
  return [
    { role: 'assistant', content: [...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []), call] },
    { role: 'user', content: [{ kind: 'toolResult', callId: call.callId, content: `Error:\n${text}` }] },
  ];
}

/** `value` without object fields whose value is a blank string (their paths noted in `dropped`). */
function withoutBlankStrings(value: unknown, path: string, dropped: string[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => withoutBlankStrings(item, `${path}[${index}]`, dropped));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (typeof field === 'string' && field.trim() === '') dropped.push(at);
    else kept[key] = withoutBlankStrings(field, at, dropped);
  }
  return kept;
}

/** Whether a failed request was the provider refusing the request's tool schema (see isSchemaRefusal). */
function refusedSchema(error: unknown, useTool: boolean): error is LanguageModelFailure {
  return useTool && error instanceof LanguageModelFailure && error.kind === 'unknown' && isSchemaRefusal(error);
}

/** The user-facing failure after a reply cut at the output limit (the second, or the first with no repair left), naming the limit when the model says it. */
function cutReply(model: LanguageModel, name: string, asked: number): LanguageModelFailure {
  const limit =
    model.maxOutputTokens === undefined ? 'its output limit' : `its output limit (${model.maxOutputTokens} tokens)`;
  return new LanguageModelFailure(
    'malformedReply',
    `${REPLY_CUT_PREFIX} (${name}${asked > 1 ? ', also when asked for a shorter reply' : ''}): ${model.name} stops at ${limit}, which is too small for this reply. Pick a model with a larger output limit in the model picker, then press Try again.`,
  );
}

/**
 * Asks the model for a value matching `schema`: through one required tool call when the model
 * supports tools (the prompt then says to answer only by calling it: some families take "required" as a hint),
 * otherwise as a fenced JSON block, with the schema as the request's response format (the provider's JSON mode,
 * where the model has one). Validates with zod and, on a malformed reply, sends the issues back and retries
 * while the repair budget lasts. A provider that refuses the tool schema (HTTP 400, "Invalid schema", "Unknown
 * name"…) is asked once more without tools, for fenced JSON against the same schema: that costs no repair. A reply
 * cut at the model's output limit gets one repair asking for the same fields, shorter; a second cut ends the
 * request with a message naming the limit (asking again would only pay for the same cut). Throws CancelledError on
 * cancellation (never retried) and LanguageModelFailure otherwise ('malformedReply' once repairs run out or cannot help).
 */
export async function requestStructured<T>(
  model: LanguageModel,
  request: StructuredRequest<T>,
  token: CancellationSignal,
): Promise<T> {
  throwIfCancelled(token);
  const jsonSchema = jsonSchemaOf(request.schema);
  let useTool = model.supportsToolCalling;
  // Without tools the provider's JSON mode carries the same schema; not after a refused schema (it would refuse it
  // there too): then the JSON is only asked for in the prompt.
  let jsonMode = !useTool;
  const tool: ToolDefinition = { name: request.name, description: request.description, inputSchema: jsonSchema };
  const responseFormat = { name: request.name, description: request.description, schema: jsonSchema };
  const asJson = (): readonly ChatMessage[] => [
    ...request.messages,
    formatInstruction(request.name, request.description, jsonSchema),
  ];
  let messages: readonly ChatMessage[] = useTool ? [...request.messages, toolOnly(request.name)] : asJson();
  const maxRepairs = Math.max(0, Math.floor(request.maxRepairs ?? MAX_REPAIRS_PER_REPLY));
  let lastIssues: readonly string[] = [];
  let cutBefore = false;

  for (let attempt = 1; ; attempt++) {
    if (useTool && !model.supportsToolCalling) {
      // The endpoint refused tools on another request since this one began: ask in JSON mode from the start.
      useTool = false;
      jsonMode = true;
      messages = asJson();
    }
    const modelRequest: ModelRequest = useTool
      ? { messages, tools: [tool], toolMode: 'required' }
      : { messages, ...(jsonMode ? { responseFormat } : {}) };
    let reply: CollectedReply;
    try {
      reply = await collectReply(model, modelRequest, token);
    } catch (error) {
      if (!refusedSchema(error, useTool)) throw error;
      // The provider refused the tool schema itself: ask for the same schema as fenced JSON, once, as no repair.
      // A model that learned from the refusal that its endpoint takes no tools at all is asked in JSON mode.
      request.onToolRefused?.(error.message);
      useTool = false;
      jsonMode = !model.supportsToolCalling;
      messages = asJson();
      attempt -= 1;
      continue;
    }
    const outcome = evaluate(request, reply, useTool);
    if (outcome.ok) {
      if (outcome.changes.length > 0) request.onNormalized?.(outcome.changes);
      return outcome.value;
    }
    lastIssues = outcome.issues;
    if (outcome.truncated && (cutBefore || attempt > maxRepairs)) throw cutReply(model, request.name, attempt);
    cutBefore = outcome.truncated;
    if (attempt > maxRepairs) {
      throw new LanguageModelFailure(
        'malformedReply',
        `${request.name}: the model's reply did not match the expected format after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${lastIssues.slice(0, 3).join('; ')}`,
      );
    }
    request.onRetry?.(attempt + 1, lastIssues);
    messages = [...messages, ...outcome.followUp];
  }
}

/** The last line of a tool-mode prompt: Claude via Copilot never gets `tool_choice`, so "required" is only a hint. */
function toolOnly(name: string): ChatMessage {
  return { role: 'user', content: `Answer only by calling the \`${name}\` tool.` };
}
