import {
  CancelledError,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
} from './languageModel';
import { collectReply, type CollectedReply } from './modelCall';
import { isSchemaRefusal } from './modelErrors';
import { isObject, type JsonObject } from './replyNormalizing';
import { creditsFor, type PriceBook } from './spending/prices';
import { forecastText } from './spending/forecastText';
import { OUTPUT_RESERVE_TOKENS } from './spending/governor';
import { messageText } from './usage';

/*
 * "Council: Check Models": one real request per model family with Council's largest schemas as a required tool,
 * and what each family did with it. The vscode-free half: the probe's request, its forecast, classifying a reply,
 * and the Markdown report a user can attach to a bug report.
 */

/** What is sent to every family: one required tool whose schema is what Council sends in real requests. */
export interface ModelCheckProbe {
  readonly name: string;
  readonly description: string;
  /** The tool's input schema as Council sends it (portable). */
  readonly inputSchema: JsonObject;
  readonly prompt: string;
  /** What is wrong with a tool input by Council's full rules (zod); empty when it would be accepted. */
  readonly validate: (input: unknown) => readonly string[];
}

/** What one family did with the probe. */
export type ModelCheckVerdict =
  | { readonly kind: 'accepted' }
  /** The provider refused the request as invalid (its schema): the message is the provider's. */
  | { readonly kind: 'refused'; readonly message: string }
  /** It answered in text instead of calling the tool. */
  | { readonly kind: 'prose'; readonly excerpt: string }
  /** It called the tool, but text fields hold a character or nothing (e.g. a decoder that anchored a pattern). */
  | { readonly kind: 'short'; readonly fields: readonly string[] }
  /** It called the tool with input Council's rules reject (a repair would be needed). */
  | { readonly kind: 'invalid'; readonly issues: readonly string[] }
  /** The request failed for another reason (permissions, quota, network). */
  | { readonly kind: 'failed'; readonly message: string }
  /** The model does not call tools: Council asks it for JSON in the reply, so nothing was sent. */
  | { readonly kind: 'noTools' };

/** One family's line in the report. */
export interface ModelCheckResult {
  readonly family: string;
  readonly model: string;
  readonly vendor: string;
  readonly verdict: ModelCheckVerdict;
}

/** Output tokens the forecast expects of a reply to the probe. */
const PROBE_OUTPUT_TOKENS = 400;

/** The probe as a request: the tool required, and the prompt saying to answer only by calling it. */
export function probeRequest(probe: ModelCheckProbe): ModelRequest {
  const messages: ChatMessage[] = [
    { role: 'user', content: probe.prompt },
    { role: 'user', content: `Answer only by calling the \`${probe.name}\` tool.` },
  ];
  return {
    messages,
    tools: [{ name: probe.name, description: probe.description, inputSchema: probe.inputSchema }],
    toolMode: 'required',
    justification: 'Council checks whether this model accepts the tool schemas Council sends.',
  };
}

/** The models to check: one per family (the first listed of each), in the order given. */
export function onePerFamily<M extends Pick<LanguageModel, 'family'>>(models: readonly M[]): M[] {
  const seen = new Set<string>();
  return models.filter(model => (seen.has(model.family) ? false : (seen.add(model.family), true)));
}

/** What the check will cost, per family and in all, before anything is sent. */
export interface ModelCheckForecast {
  readonly rows: readonly {
    readonly family: string;
    readonly inputTokens: number;
    readonly outputTokens: number;
    /** Undefined when the model's price is unknown. */
    readonly credits: number | undefined;
    /** The credits if the reply takes the OUTPUT_RESERVE_TOKENS the governor reserves per request (the bound). */
    readonly mostCredits: number | undefined;
  }[];
  readonly credits: number;
  readonly mostCredits: number;
  /** Families whose price is unknown (their cost is shown in tokens only). */
  readonly unpriced: number;
}

/** Counts the probe's tokens with each model's own tokenizer and prices them with the PriceBook (models without tool calling are not sent it). */
export async function forecastModelCheck(
  models: readonly LanguageModel[],
  probe: ModelCheckProbe,
  prices: PriceBook,
  token?: CancellationSignal,
): Promise<ModelCheckForecast> {
  const request = probeRequest(probe);
  const rows = await Promise.all(
    models
      .filter(model => model.supportsToolCalling)
      .map(async model => {
        const texts = [...request.messages.map(messageText), JSON.stringify(request.tools)];
        const counts = await Promise.all(texts.map(text => model.countTokens(text, token)));
        const inputTokens = counts.reduce((sum, n) => sum + n, 0);
        const price = prices.priceOf(model);
        return {
          family: model.family,
          inputTokens,
          outputTokens: PROBE_OUTPUT_TOKENS,
          credits: price === undefined ? undefined : creditsFor(price, inputTokens, PROBE_OUTPUT_TOKENS),
          mostCredits: price === undefined ? undefined : creditsFor(price, inputTokens, OUTPUT_RESERVE_TOKENS),
        };
      }),
  );
  return {
    rows,
    credits: rows.reduce((sum, row) => sum + (row.credits ?? 0), 0),
    mostCredits: rows.reduce((sum, row) => sum + (row.mostCredits ?? 0), 0),
    unpriced: rows.filter(row => row.credits === undefined).length,
  };
}

/**
 * The forecast in one sentence, for the confirmation dialog: both figures in the words every forecast uses (one
 * request per family; each reply expected at PROBE_OUTPUT_TOKENS, at most the governor's OUTPUT_RESERVE_TOKENS).
 */
export function modelCheckForecastText(forecast: ModelCheckForecast): string {
  const families = forecast.rows.length;
  const input = forecast.rows.reduce((sum, row) => sum + row.inputTokens, 0);
  const allUnpriced = families > 0 && forecast.unpriced === families;
  const figure = (output: number, credits: number) => ({
    requests: families,
    tokens: input + families * output,
    credits: allUnpriced ? undefined : credits,
  });
  const unpriced = forecast.unpriced > 0 && !allUnpriced ? ` (${forecast.unpriced} at an unknown price)` : '';
  return `Council will send one request to each of ${families} model famil${families === 1 ? 'y' : 'ies'}: ${forecastText(figure(PROBE_OUTPUT_TOKENS, forecast.credits), figure(OUTPUT_RESERVE_TOKENS, forecast.mostCredits))}${unpriced}.`;
}

/**
 * Text fields of `input` that hold at most one visible character where `schema` expects text (a string without an
 * enum): what a decoder that anchored `pattern: "\S"` writes.
 */
export function shortTextFields(input: unknown, schema: unknown, at = ''): string[] {
  if (!isObject(schema)) return [];
  if (Array.isArray(schema['anyOf']))
    return [...new Set(schema['anyOf'].flatMap(option => shortTextFields(input, option, at)))];
  if (schema['type'] === 'string' && schema['enum'] === undefined && typeof input === 'string')
    return input.trim().length <= 1 ? [at || '(the input)'] : [];
  if (Array.isArray(input))
    return input.flatMap((item, index) => shortTextFields(item, schema['items'], `${at}[${index}]`));
  const properties = schema['properties'];
  if (isObject(input) && isObject(properties))
    return Object.entries(properties).flatMap(([name, property]) =>
      name in input ? shortTextFields(input[name], property, at ? `${at}.${name}` : name) : [],
    );
  return [];
}

function toolInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** Classifies what a model did with the probe: its reply, or the error its request failed with. */
export function classifyProbe(
  probe: ModelCheckProbe,
  outcome: { readonly reply: CollectedReply } | { readonly error: unknown },
): ModelCheckVerdict {
  if ('error' in outcome) {
    // The provider's own words, without the port's "The model request failed:" in front.
    const message = (outcome.error instanceof Error ? outcome.error.message : String(outcome.error)).replace(
      /^The model request failed:\s*/,
      '',
    );
    return isSchemaRefusal(outcome.error) ? { kind: 'refused', message } : { kind: 'failed', message };
  }
  const call = outcome.reply.toolCalls.find(c => c.name === probe.name) ?? outcome.reply.toolCalls[0];
  if (!call) return { kind: 'prose', excerpt: outcome.reply.text.trim().slice(0, 200) };
  const input = toolInput(call.input);
  const short = shortTextFields(input, probe.inputSchema);
  if (short.length > 0) return { kind: 'short', fields: short };
  const issues = probe.validate(input);
  return issues.length > 0 ? { kind: 'invalid', issues } : { kind: 'accepted' };
}

/** Sends the probe to `model` once and classifies the outcome (cancellation is rethrown). */
export async function checkModel(
  model: LanguageModel,
  probe: ModelCheckProbe,
  token: CancellationSignal,
): Promise<ModelCheckResult> {
  const identity = { family: model.family, model: model.name, vendor: model.vendor };
  if (!model.supportsToolCalling) return { ...identity, verdict: { kind: 'noTools' } };
  try {
    const reply = await collectReply(model, probeRequest(probe), token);
    return { ...identity, verdict: classifyProbe(probe, { reply }) };
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return { ...identity, verdict: classifyProbe(probe, { error }) };
  }
}

const VERDICT_LABEL: Readonly<Record<ModelCheckVerdict['kind'], string>> = {
  accepted: '✅ accepted',
  refused: '❌ refused the schema',
  prose: '⚠️ answered in prose',
  short: '⚠️ suspiciously short values',
  invalid: '⚠️ called the tool with invalid input',
  failed: '❌ request failed',
  noTools: '— no tool calling',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[`<>]/g, '').replace(/\s+/g, ' ').trim();
}

function detail(verdict: ModelCheckVerdict): string {
  switch (verdict.kind) {
    case 'accepted':
      return '';
    case 'noTools':
      return 'not sent: Council asks this model for JSON in the reply';
    case 'refused':
    case 'failed':
      return verdict.message;
    case 'prose':
      return verdict.excerpt === '' ? '(empty reply)' : verdict.excerpt;
    case 'short':
      return `one character or less in: ${verdict.fields.slice(0, 5).join(', ')}`;
    case 'invalid':
      return verdict.issues.slice(0, 3).join('; ');
  }
}

/** What the report says about where it came from (so a bug report carries it). */
export interface ModelCheckContext {
  readonly date: string;
  readonly councilVersion: string;
  readonly hostVersion: string;
  readonly probe: ModelCheckProbe;
}

/** The check as a Markdown report: one row per family, what it did, and the provider's own words when it refused. */
export function modelCheckReport(results: readonly ModelCheckResult[], context: ModelCheckContext): string {
  const rows = results.map(
    r =>
      `| ${cell(r.family)} | ${cell(r.model)} | ${cell(r.vendor)} | ${VERDICT_LABEL[r.verdict.kind]} | ${cell(detail(r.verdict))} |`,
  );
  const accepted = results.filter(r => r.verdict.kind === 'accepted').length;
  const schemaTokens = JSON.stringify(context.probe.inputSchema).length;
  return [
    '# Council: model check',
    '',
    `${context.date} · Council ${context.councilVersion} · VS Code ${context.hostVersion}`,
    '',
    `One request per model family, with the \`${context.probe.name}\` tool required (Council's largest reply schemas, ${schemaTokens} characters of JSON Schema). ${accepted} of ${results.length} famil${results.length === 1 ? 'y' : 'ies'} accepted it.`,
    '',
    '| Family | Model | Vendor | Result | Details |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '- **refused the schema**: the provider rejected the request (Council then asks for JSON in the reply instead, at one extra request).',
    '- **answered in prose** / **suspiciously short values** / **invalid input**: Council repairs such replies, at extra requests.',
    '',
    'If a model misbehaves with Council, attach this report to your bug report.',
    '',
  ].join('\n');
}
