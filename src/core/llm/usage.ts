import type { ChatMessage, LanguageModel, MessagePart } from './languageModel';

function partText(part: MessagePart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolCall':
      return `${part.name} ${JSON.stringify(part.input)}`;
    case 'toolResult':
      return part.content;
  }
}

/** The text of a message as a tokenizer would see it. */
export function messageText(message: ChatMessage): string {
  return typeof message.content === 'string' ? message.content : message.content.map(partText).join('\n');
}

/** Prompt tokens of a message list, counted by the model's own tokenizer. */
export async function countPromptTokens(model: LanguageModel, messages: readonly ChatMessage[]): Promise<number> {
  const counts = await Promise.all(messages.map(message => model.countTokens(messageText(message))));
  return counts.reduce((sum, n) => sum + n, 0);
}
