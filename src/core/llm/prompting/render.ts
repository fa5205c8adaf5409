import { renderPrompt, type BasePromptElementProps, type PromptElementCtor, type ITokenizer } from '@vscode/prompt-tsx';
import type { ChatMessage as PromptTsxMessage } from '@vscode/prompt-tsx';
import type { z } from 'zod';
import { throwIfCancelled, type CancellationSignal, type ChatMessage, type LanguageModel } from '../languageModel';
import { jsonSchemaOf } from '../structuredOutput';

/** Per-message overhead the tokenizer adds for role markers (OpenAI-style estimate). */
const MESSAGE_OVERHEAD_TOKENS = 3;

/** The text of a message prompt-tsx rendered (its text parts). */
export function renderedText(message: PromptTsxMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return content.map(part => (part.type === 'text' ? part.text : '')).join('');
}

function tokenizerFor(model: LanguageModel): ITokenizer {
  return {
    tokenLength: text => model.countTokens(text),
    countMessageTokens: async message => (await model.countTokens(renderedText(message))) + MESSAGE_OVERHEAD_TOKENS,
  };
}

/** Tokens kept free by default for what requestStructured adds after rendering (tool schema or JSON instruction, ~700 tokens for our largest reply schema). */
const DEFAULT_RESERVED_TOKENS = 1_000;

/** Tokens kept free besides the reply's schema (message markers, the repair instruction's words). */
const REPLY_MARGIN_TOKENS = 150;

/** Options for {@link renderMessages}. */
export interface RenderOptions {
  /** Tokens of `maxInputTokens` left unused by the prompt (default: 1000, at most 1/8 of the window). */
  readonly reservedTokens?: number;
  /**
   * The structured reply the prompt is sent with: the reserve is then what it adds, measured (its tool definition
   * or fenced-JSON instruction), so a small window is not overfilled and a large one not underused.
   */
  readonly reply?: { readonly name: string; readonly description: string; readonly schema: z.ZodType };
}

/** Tokens the reply's tool definition or JSON instruction adds to a request (the larger of the two). */
async function replyTokens(model: LanguageModel, reply: NonNullable<RenderOptions['reply']>): Promise<number> {
  const schema = jsonSchemaOf(reply.schema);
  const asInstruction = `${reply.name}\n${reply.description}\n${JSON.stringify(schema, null, 2)}`;
  const asTool = JSON.stringify({ name: reply.name, description: reply.description, inputSchema: schema });
  return (await model.countTokens(asInstruction.length > asTool.length ? asInstruction : asTool)) + REPLY_MARGIN_TOKENS;
}

/** The token budget a prompt may fill for `model`. */
export async function promptBudget(model: LanguageModel, options: RenderOptions = {}): Promise<number> {
  const reserved =
    options.reservedTokens ??
    (options.reply
      ? await replyTokens(model, options.reply)
      : Math.min(DEFAULT_RESERVED_TOKENS, Math.floor(model.maxInputTokens / 8)));
  return Math.max(0, model.maxInputTokens - reserved);
}

export interface RenderedPrompt {
  readonly messages: ChatMessage[];
  readonly tokenCount: number;
}

/**
 * Renders a prompt-tsx element within the model's `maxInputTokens` (minus a reserve for the
 * structured-output instruction); lower-priority children are pruned first.
 * Rendered in 'none' mode so nothing here needs `vscode`.
 */
export async function renderMessages<P extends BasePromptElementProps>(
  element: PromptElementCtor<P, unknown>,
  props: P,
  model: LanguageModel,
  token?: CancellationSignal,
  options: RenderOptions = {},
): Promise<RenderedPrompt> {
  // prompt-tsx only hands the token to elements; check it ourselves so a cancelled turn stops here.
  if (token) throwIfCancelled(token);
  const result = await renderPrompt(
    element,
    props,
    { modelMaxPromptTokens: await promptBudget(model, options) },
    tokenizerFor(model),
    undefined,
    token as never,
    'none',
  );
  if (token) throwIfCancelled(token);
  const messages: ChatMessage[] = result.messages.map(message => ({
    // SystemMessage is dropped by vscode.lm, so prompts use UserMessage; map anything else to user.
    role: message.role === 'assistant' ? 'assistant' : 'user',
    content: renderedText(message),
  }));
  return { messages, tokenCount: result.tokenCount };
}
