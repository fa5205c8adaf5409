import { MIN_DEBATE_CONTEXT_TOKENS, typicalRequestCredits, type SeatableModel } from './diverseSeating';
import { pickModel, type ModelDescriptor } from './modelSelector';
import type { PriceBook } from './spending/prices';

/*
 * A tool call carries no model (the agent's own model is not passed to tools), so Council's tools pick one by a
 * rule the user can read and change, never "whatever VS Code lists first" (which may be the dearest model):
 * 1. `council.models.default`, when it names an available model;
 * 2. else the model the user last ran `@council` with (their last explicit choice in the model picker);
 * 3. else the cheapest capable model by the price table (a context window that holds a debate; known prices
 *    before unknown ones, which may cost anything).
 */

/** What is remembered of the model the user last ran `@council` with. */
export interface RememberedModel {
  readonly vendor: string;
  readonly family: string;
  readonly id: string;
}

/** The model a tool runs on and why, in words the result shows. */
export interface ToolModelChoice<M> {
  readonly model: M;
  readonly reason: string;
}

/** The rule above; undefined when no model is available at all. */
export function chooseToolModel<M extends SeatableModel>(
  available: readonly M[],
  rule: { readonly setting: string; readonly lastUsed?: RememberedModel; readonly prices: PriceBook },
): ToolModelChoice<M> | undefined {
  const setting = rule.setting.trim();
  const missed = setting ? `\`council.models.default\` names \`${setting}\`, which is not available; ` : '';
  if (setting) {
    const named = pickModel(setting, available);
    if (named) return { model: named, reason: 'set in `council.models.default`' };
  }
  const last = rule.lastUsed && rememberedIn(rule.lastUsed, available);
  if (last) return { model: last, reason: `${missed}the model you last used with \`@council\``.trimStart() };
  const capable = available.filter(model => model.maxInputTokens >= MIN_DEBATE_CONTEXT_TOKENS);
  const ranked = (capable.length > 0 ? capable : [...available])
    .map((model, order) => ({ model, order, cost: typicalRequestCredits(model, rule.prices) ?? Infinity }))
    .sort((a, b) => a.cost - b.cost || a.order - b.order);
  const cheapest = ranked[0];
  if (!cheapest) return undefined;
  const why =
    cheapest.cost === Infinity
      ? 'no model has a known price, so the first capable one'
      : 'the cheapest capable model by the price table';
  return {
    model: cheapest.model,
    reason: `${missed}${why} (set \`council.models.default\` to choose, or run \`@council\` once with the model you want)`,
  };
}

/** The remembered model if still available: the same id, else the same vendor and family (a newer version). */
function rememberedIn<M extends ModelDescriptor>(remembered: RememberedModel, available: readonly M[]): M | undefined {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return (
    available.find(m => same(m.vendor, remembered.vendor) && same(m.id, remembered.id)) ??
    available.find(m => same(m.vendor, remembered.vendor) && same(m.family, remembered.family))
  );
}
