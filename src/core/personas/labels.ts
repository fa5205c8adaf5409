import type { PersonaContract } from './contract';

/**
 * Canonical form for comparing what a user typed with a persona's id, name or alias:
 * case-insensitive, and `-`, `_` and runs of spaces are the same ("Security-Expert" = "security expert").
 */
export function normalizeLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

/** How strongly a label identifies a persona; lookups prefer ids, then names, then aliases. */
export type LabelKind = 'id' | 'name' | 'alias';

/** One way of referring to a persona, already normalized. */
export interface PersonaLabel {
  readonly label: string;
  readonly kind: LabelKind;
  readonly persona: PersonaContract;
}

/** Every label of every persona, ids first, then names, then aliases, each tier in registry order. */
export function personaLabels(personas: readonly PersonaContract[]): readonly PersonaLabel[] {
  const tier = (kind: LabelKind, pick: (p: PersonaContract) => readonly string[]): PersonaLabel[] =>
    personas.flatMap(persona => pick(persona).map(text => ({ label: normalizeLabel(text), kind, persona })));
  return [...tier('id', p => [p.id]), ...tier('name', p => [p.name]), ...tier('alias', p => p.aliases ?? [])].filter(
    entry => entry.label !== '',
  );
}
