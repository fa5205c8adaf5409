import type { ModelChoice, RoleModels } from '../../core/council/ports';
import type { LanguageModel } from '../../core/llm/languageModel';
import type { PersonaContract } from '../../core/personas/contract';

/*
 * The config's models per role, as the core's RoleModels port: each persona's requests go to its seat's model
 * (by persona id), the answer to the answer's model, anything not named to the default. The opening (choosing the
 * council, the questions) is CouncilDeps.model.
 */
export class SeatModels implements RoleModels {
  constructor(
    private readonly models: {
      readonly fallback: LanguageModel;
      readonly answer?: LanguageModel;
      readonly seats: ReadonlyMap<string, LanguageModel>;
    },
  ) {}

  forPersona(persona: PersonaContract): Promise<ModelChoice> {
    return Promise.resolve({ model: this.models.seats.get(persona.id) ?? this.models.fallback });
  }

  forSynthesis(): Promise<ModelChoice> {
    return Promise.resolve({ model: this.models.answer ?? this.models.fallback });
  }
}
