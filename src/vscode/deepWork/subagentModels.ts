import * as vscode from 'vscode';
import type { LanguageModel } from '../../core/llm/languageModel';
import { chooseModel } from '../../core/llm/modelSelector';

/**
 * The model a subagent's `config.model` names (`sonnet`, `gpt-4.1`, `copilot/claude-sonnet-4`: matched like
 * `council.models.*`), from the models VS Code offers; the chat's model when none matches, with a note. `adapt` wraps
 * a VS Code model as Council's (adapted and traced, as the run's own model is).
 */
export function subagentModels(
  chatModel: vscode.LanguageModelChat,
  note: (message: string) => void,
  adapt: (chat: vscode.LanguageModelChat) => LanguageModel,
): (name: string | undefined) => Promise<LanguageModel> {
  let models: Promise<readonly vscode.LanguageModelChat[]> | undefined;
  const chosen = new Map<string, LanguageModel>();
  return async name => {
    if (!name) return adapt(chatModel);
    const known = chosen.get(name);
    if (known) return known;
    models ??= Promise.resolve(vscode.lm.selectChatModels()).then(
      list => list,
      () => [],
    );
    const choice = chooseModel(
      [{ selector: name, source: "a subagent's `config.model`" }],
      await models,
      chatModel,
      'A subagent',
    );
    if (choice.note) note(choice.note);
    const model = adapt(choice.model);
    chosen.set(name, model);
    return model;
  };
}
