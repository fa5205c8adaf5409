import * as vscode from 'vscode';
import type { ModelChoice, RoleModels } from '../../core/council/ports';
import type { LanguageModel } from '../../core/llm/languageModel';
import { diverseRoster, diverseSeat } from '../../core/llm/diverseSeating';
import { chooseModel, type ModelWish } from '../../core/llm/modelSelector';
import { PriceBook } from '../../core/llm/spending/prices';
import { preferredModels, type PersonaContract } from '../../core/personas/contract';
import { COUNCIL_SECTION, SETTING, type CouncilSettings } from '../settings';

/**
 * Models per role for one turn: a persona speaks on the first available model of its file's `model:`, else on
 * `council.models.personas`, else (with `council.models.diverse`) on the family its seat gets among the capable
 * models, cheapest first, else on the chat's model; the answer is written on `council.models.synthesis`, else
 * the chat's. An unavailable model falls back with a note, never an error. The available models are asked for
 * once per turn, and only when something names a model.
 */
export function createRoleModels(
  chatModel: vscode.LanguageModelChat,
  settings: Pick<CouncilSettings, 'personaModel' | 'synthesisModel'> &
    Partial<Pick<CouncilSettings, 'diverseModels' | 'spending'>>,
  wrap: (model: vscode.LanguageModelChat) => LanguageModel,
  available: () => Thenable<readonly vscode.LanguageModelChat[]> = () => vscode.lm.selectChatModels(),
): RoleModels {
  const wrapped = new Map<string, LanguageModel>();
  const adapted = (model: vscode.LanguageModelChat): LanguageModel => {
    const known = wrapped.get(model.id);
    if (known) return known;
    const made = wrap(model);
    wrapped.set(model.id, made);
    return made;
  };
  let models: Promise<readonly vscode.LanguageModelChat[]> | undefined;
  const listed = () =>
    (models ??= Promise.resolve(available()).then(
      list => list,
      () => [],
    ));
  const choose = async (wishes: readonly ModelWish[], who: string): Promise<ModelChoice> => {
    if (wishes.length === 0) return { model: adapted(chatModel) };
    const choice = chooseModel(wishes, await listed(), chatModel, who);
    return { model: adapted(choice.model), ...(choice.note ? { note: choice.note } : {}) };
  };
  const setting = (key: string, value: string): ModelWish[] =>
    value === '' ? [] : [{ selector: value, source: `\`${COUNCIL_SECTION}.${key}\`` }];
  let roster: Promise<readonly vscode.LanguageModelChat[]> | undefined;
  const diverse = async (seat: number): Promise<ModelChoice> => {
    roster ??= listed().then(list => diverseRoster(list, chatModel, new PriceBook(settings.spending?.prices)));
    return { model: adapted(diverseSeat(await roster, seat, chatModel)) };
  };
  return {
    forPersona: (persona: PersonaContract, seat = 0) => {
      const wishes = [
        ...preferredModels(persona).map(selector => ({ selector, source: `${persona.name}'s \`model:\`` })),
        ...setting(SETTING.personaModel, settings.personaModel),
      ];
      return wishes.length === 0 && settings.diverseModels ? diverse(seat) : choose(wishes, persona.name);
    },
    forSynthesis: () => choose(setting(SETTING.synthesisModel, settings.synthesisModel), 'The consolidated answer'),
  };
}
