import * as vscode from 'vscode';
import {
  CancelledError,
  LanguageModelFailure,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../../core/llm/languageModel';
import { toModelError } from '../../core/llm/modelErrors';

/**
 * The LanguageModel port over the model the user picked in chat (`request.model`).
 * Every failure leaves as a `LanguageModelFailure` or `CancelledError`, never a raw VS Code error.
 */
export function adaptLanguageModel(model: vscode.LanguageModelChat): LanguageModel {
  return {
    id: model.id,
    name: model.name,
    family: model.family,
    vendor: model.vendor,
    maxInputTokens: model.maxInputTokens,
    supportsToolCalling: supportsToolCalling(model),
    ...maxOutputTokensOf(model),
    sendRequest: (request, token) => streamResponse(model, request, token),
    countTokens: async (text, token) => {
      const linked = linkToken(token);
      try {
        return await model.countTokens(text, linked.token);
      } catch (error) {
        throw toModelFailure(error, token);
      } finally {
        linked.dispose();
      }
    },
  };
}

/** The output limit, when the host says (a provider's `maxOutputTokens`, not in LanguageModelChat's typings). */
function maxOutputTokensOf(model: vscode.LanguageModelChat): { readonly maxOutputTokens?: number } {
  const limit = (model as { readonly maxOutputTokens?: unknown }).maxOutputTokens;
  return typeof limit === 'number' && limit > 0 ? { maxOutputTokens: limit } : {};
}

/** `capabilities` is not in the 1.104 typings; hosts without it get the fenced-JSON path, which every model handles. */
function supportsToolCalling(model: vscode.LanguageModelChat): boolean {
  const capabilities = (model as { readonly capabilities?: { readonly supportsToolCalling?: unknown } }).capabilities;
  return capabilities?.supportsToolCalling === true;
}

async function* streamResponse(
  model: vscode.LanguageModelChat,
  request: ModelRequest,
  token: CancellationSignal,
): AsyncGenerator<ResponsePart> {
  if (token.isCancellationRequested) throw new CancelledError();
  const linked = linkToken(token);
  try {
    const response = await model.sendRequest(
      request.messages.map(toVsCodeMessage),
      toRequestOptions(request),
      linked.token,
    );
    for await (const part of response.stream) {
      const mapped = toResponsePart(part);
      if (mapped) yield mapped;
    }
  } catch (error) {
    throw toModelFailure(error, token);
  } finally {
    linked.dispose();
  }
}

function toRequestOptions(request: ModelRequest): vscode.LanguageModelChatRequestOptions {
  return {
    justification: request.justification,
    tools: request.tools?.map(tool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
    toolMode:
      request.toolMode === undefined
        ? undefined
        : request.toolMode === 'required'
          ? vscode.LanguageModelChatToolMode.Required
          : vscode.LanguageModelChatToolMode.Auto,
  };
}

/** Maps one port message; tool calls and results keep their call ids so the model can pair them. */
function toVsCodeMessage(message: ChatMessage): vscode.LanguageModelChatMessage {
  const role =
    message.role === 'assistant'
      ? vscode.LanguageModelChatMessageRole.Assistant
      : vscode.LanguageModelChatMessageRole.User;
  if (typeof message.content === 'string') return new vscode.LanguageModelChatMessage(role, message.content);
  const parts = message.content.map((part): vscode.LanguageModelInputPart => {
    switch (part.kind) {
      case 'text':
        return new vscode.LanguageModelTextPart(part.text);
      case 'toolCall':
        return new vscode.LanguageModelToolCallPart(part.callId, part.name, asToolInput(part.input));
      case 'toolResult':
        return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.content)]);
    }
  });
  return new vscode.LanguageModelChatMessage(role, parts);
}

/** VS Code wants an object as tool input; a stray primitive is wrapped rather than dropped. */
function asToolInput(input: unknown): object {
  return typeof input === 'object' && input !== null ? input : { value: input };
}

/** Text and tool calls matter to the council; other parts (e.g. thinking, data) are skipped. */
function toResponsePart(part: unknown): ResponsePart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  }
  return undefined;
}

/** A VS Code token that follows the port's signal, so any CancellationSignal works here. */
function linkToken(signal: CancellationSignal | undefined): {
  readonly token: vscode.CancellationToken;
  dispose(): void;
} {
  const source = new vscode.CancellationTokenSource();
  if (signal?.isCancellationRequested) source.cancel();
  const listener = signal?.onCancellationRequested(() => source.cancel());
  return {
    token: source.token,
    dispose: () => {
      listener?.dispose();
      source.dispose();
    },
  };
}

/** Maps what a VS Code model call throws to the port's errors (the one mapping lives in core). */
function toModelFailure(error: unknown, token?: CancellationSignal): LanguageModelFailure | CancelledError {
  if (error instanceof vscode.CancellationError) return new CancelledError();
  return toModelError(error, token);
}
