/**
 * Which model a selector names. A selector is `vendor/family` (e.g. `copilot/gpt-4.1`), or one word that is a
 * model id or a family (`gpt-4.1`, `claude-sonnet-4`). Matching ignores case; an exact id wins over a family.
 */

/** What is known of an available model (the fields `vscode.LanguageModelChat` has). */
export interface ModelDescriptor {
  readonly id: string;
  readonly vendor: string;
  readonly family: string;
  readonly name: string;
}

/** The available model `selector` names, or undefined when none does. */
export function pickModel<M extends ModelDescriptor>(selector: string, available: readonly M[]): M | undefined {
  const wanted = selector.trim().toLowerCase();
  if (wanted === '') return undefined;
  const same = (a: string, b: string) => a.toLowerCase() === b;
  const slash = wanted.indexOf('/');
  if (slash > 0) {
    const vendor = wanted.slice(0, slash);
    const family = wanted.slice(slash + 1);
    return available.find(m => same(m.vendor, vendor) && (same(m.family, family) || same(m.id, family)));
  }
  return available.find(m => same(m.id, wanted)) ?? available.find(m => same(m.family, wanted));
}

/** How a model is named to the user: its name, or its id when it has none. */
function modelLabel(model: Pick<ModelDescriptor, 'name' | 'id'>): string {
  return model.name.trim() !== '' ? model.name : model.id;
}

/** A model someone asked for, and where they asked (for the note when it is not available). */
export interface ModelWish {
  readonly selector: string;
  /** e.g. "Security Expert's `model:`", "`council.models.personas`". */
  readonly source: string;
}

/** The model chosen for a role, and what the user should know when it is not the one asked for. */
export interface ModelChoiceOf<M> {
  readonly model: M;
  readonly note?: string;
}

/**
 * The first of `wishes` that is available, else `fallback` (the chat's model). Never fails: unavailable wishes
 * are named in a note that says what `who` uses instead.
 */
export function chooseModel<M extends ModelDescriptor>(
  wishes: readonly ModelWish[],
  available: readonly M[],
  fallback: M,
  who: string,
): ModelChoiceOf<M> {
  const missing: ModelWish[] = [];
  for (const wish of wishes) {
    const found = pickModel(wish.selector, available);
    if (found)
      return missing.length === 0
        ? { model: found }
        : { model: found, note: missingNote(missing, `${who} uses ${modelLabel(found)} instead.`) };
    missing.push(wish);
  }
  return missing.length === 0
    ? { model: fallback }
    : { model: fallback, note: missingNote(missing, `${who} uses ${modelLabel(fallback)}, the chat's model.`) };
}

function missingNote(missing: readonly ModelWish[], instead: string): string {
  const named = missing.map(w => `\`${w.selector}\` (${w.source})`).join(', ');
  return `${named} ${missing.length === 1 ? 'is' : 'are'} not available; ${instead}`;
}
