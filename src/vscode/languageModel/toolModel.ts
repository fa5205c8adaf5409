import * as vscode from 'vscode';
import { chooseToolModel, type RememberedModel, type ToolModelChoice } from '../../core/llm/toolModelRule';
import { PriceBook } from '../../core/llm/spending/prices';
import type { CouncilSettings } from '../settings';

/** Where the model of the user's last `@council` request is remembered (`context.globalState`). */
const LAST_CHAT_MODEL = 'council.lastChatModel';

/** The part of `vscode.Memento` the rule reads and writes. */
export type ModelMemento = Pick<vscode.Memento, 'get' | 'update'>;

/** Remembers the model a `@council` request ran on: the tools' rule falls back to it. */
export async function rememberChatModel(memento: ModelMemento, model: vscode.LanguageModelChat): Promise<void> {
  const remembered: RememberedModel = { vendor: model.vendor, family: model.family, id: model.id };
  const known = memento.get<RememberedModel>(LAST_CHAT_MODEL);
  if (known?.id !== remembered.id || known.vendor !== remembered.vendor)
    await memento.update(LAST_CHAT_MODEL, remembered);
}

/**
 * The model a Council tool runs on (a tool call carries none), by the documented rule (toolModelRule.ts):
 * `council.models.default`, else the model of the user's last `@council` request, else the cheapest capable one.
 */
export async function toolModel(
  memento: ModelMemento,
  settings: Pick<CouncilSettings, 'defaultModel' | 'spending'>,
): Promise<ToolModelChoice<vscode.LanguageModelChat> | undefined> {
  const available = await vscode.lm.selectChatModels();
  const lastUsed = memento.get<RememberedModel>(LAST_CHAT_MODEL);
  return chooseToolModel(available, {
    setting: settings.defaultModel,
    ...(lastUsed ? { lastUsed } : {}),
    prices: new PriceBook(settings.spending.prices),
  });
}
