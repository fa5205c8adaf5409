import { renderPrompt, type BasePromptElementProps, type PromptElementCtor, type ITokenizer } from '@vscode/prompt-tsx';
import type { ChatMessage as PromptTsxMessage } from '@vscode/prompt-tsx';
import { throwIfCancelled, type CancellationSignal, type ChatMessage, type LanguageModel } from '../languageModel';

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

/** Options for {@link renderMessages}. */
export interface RenderOptions {
  /** Tokens of `maxInputTokens` left unused by the prompt (default: 1000, at most 1/8 of the window). */
  readonly reservedTokens?: number;
}

/** The token budget a prompt may fill for `model`. */
export function promptBudget(model: LanguageModel, options: RenderOptions = {}): number {
  const reserved = options.reservedTokens ?? Math.min(DEFAULT_RESERVED_TOKENS, Math.floor(model.maxInputTokens / 8));
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
    { modelMaxPromptTokens: promptBudget(model, options) },
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
