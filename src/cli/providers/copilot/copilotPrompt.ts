import type { ChatMessage, ModelRequest } from '../../../core/llm/languageModel';

/*
 * A Copilot CLI session takes one prompt per turn, not a list of chat messages: a request's messages become one
 * prompt (Council's own messages as they are; a conversation, such as a repair round, as a transcript), and the
 * system message replaces the CLI's coding-agent prompt with what Council needs (no files, no shell, one reply).
 */

/** The system message of every Council session: the agent's own prompt would cost tokens and invite tool use. */
export function systemMessage(request: ModelRequest): string {
  const tools = request.tools ?? [];
  const lines = [
    'You answer one request from Council, a tool in which a council of personas deliberates on a decision.',
    'You have no files, no shell and no web access: answer from the request alone, in one reply.',
  ];
  if (tools.length > 0) {
    const names = tools.map(tool => `\`${tool.name}\``).join(', ');
    lines.push(
      request.toolMode === 'required'
        ? `Answer only by calling ${tools.length === 1 ? 'the tool' : 'one of the tools'} ${names}, once, with input that follows its schema; write no other text.`
        : `You may answer by calling ${tools.length === 1 ? 'the tool' : 'one of the tools'} ${names}, with input that follows its schema.`,
    );
  }
  return lines.join('\n');
}

/** The request's messages as one prompt. */
export function promptText(messages: readonly ChatMessage[]): string {
  // Council's own messages (a prompt and its instruction) go as they are, one after the other.
  if (messages.every(message => message.role === 'user' && typeof message.content === 'string')) {
    return messages.map(message => message.content as string).join('\n\n');
  }
  const toolNames = new Map<string, string>();
  const sections = messages.map(message => {
    const parts =
      typeof message.content === 'string' ? [{ kind: 'text', text: message.content } as const] : message.content;
    const lines = parts.map(part => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'toolCall') {
        toolNames.set(part.callId, part.name);
        return `(called the tool \`${part.name}\` with input ${JSON.stringify(part.input)})`;
      }
      return `(result of the call to \`${toolNames.get(part.callId) ?? 'the tool'}\`: ${part.content})`;
    });
    return `### ${message.role === 'assistant' ? 'Your earlier reply' : 'Council'}\n${lines.join('\n')}`;
  });
  return ['The conversation so far follows; reply to its last message from Council.', '', sections.join('\n\n')].join(
    '\n',
  );
}
