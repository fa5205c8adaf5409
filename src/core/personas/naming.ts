import type { PersonaContract } from './contract';
import { normalizeLabel, personaLabels, type PersonaLabel } from './labels';

/** The personas a user explicitly asked for, and names in a panel header that match no persona. */
export interface ExplicitPersonaNames {
  /** In the order the user named them, without repeats. */
  readonly personas: readonly PersonaContract[];
  /** Items of a panel header ("with X, Y:") that are not a persona; reported only if another item is one. */
  readonly unknownNames: readonly string[];
}

/*
 * Explicit naming forms. A persona word merely appearing in the request ("improve security of
 * login") is never an override; only these forms are:
 *  1. Panel header at the very start, ended by a colon:
 *       "with Security Expert, Architect: ..."   "ask the architect and the DBA: ..."
 *     trigger: with | using | ask | consult; items separated by "," "and" "&" "+" "/".
 *  2. Addressing verb anywhere, followed by a clause boundary:
 *       "ask the security expert and the architect whether ..."   "consult security on ..."
 *     trigger: ask | consult; every item must be a persona, and the list must be followed by the end,
 *     punctuation or a linking word (to, whether, about, on, ...), so "ask performance questions" is not one.
 *  3. Mention by id or one-word alias: "@security-expert @architect ...".
 * Items are matched by id, display name or alias (case-insensitive), optionally after "the"/"our"/"a"/"an".
 */

const ARTICLE = /(?:the|our|your|my|a|an)\s+/iy;
const SEPARATOR = /\s*,\s*(?:and\s+)?|\s+and\s+|\s*[&+/]\s*/iy;
const HEADER = /^\s*(?:@council\s+)?(?:with|using|ask|consult)\s+([^:\n]{1,200}):/i;
const HEADER_ITEM_SEPARATOR = /\s*,\s*(?:and\s+)?|\s+and\s+|\s*[&+/]\s*/i;
const LEADING_ARTICLE = /^(?:the|our|your|my|a|an)\s+/i;
const ADDRESS = /\b(?:ask|consult)\s+/gi;
const CLAUSE_BOUNDARY =
  /\s*(?:$|[,.;:?!)\]\u2013\u2014-]|(?:to|whether|if|about|for|how|what|why|which|when|where|who|on|regarding|and|or|then)\b)/iy;
const MENTION = /(?:^|[\s(,])@([a-z0-9][\w-]*)/gi;

interface Found {
  readonly at: number;
  readonly persona: PersonaContract;
}

interface Matcher {
  readonly pattern: RegExp;
  readonly persona: PersonaContract;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Sticky, case-insensitive patterns for every label; longest first so "security expert" wins over "security". */
function matchersFor(labels: readonly PersonaLabel[]): readonly Matcher[] {
  return [...labels]
    .sort((a, b) => b.label.length - a.label.length)
    .map(({ label, persona }) => ({
      // Not followed by a letter, digit, apostrophe or "-word": "security" must not match "security-minded".
      pattern: new RegExp(
        `${label.split(' ').map(escapeRegExp).join('[\\s_-]+')}(?![\\p{L}\\p{N}']|[_-][\\p{L}\\p{N}])`,
        'iuy',
      ),
      persona,
    }));
}

function stickyMatch(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function readItem(
  text: string,
  at: number,
  matchers: readonly Matcher[],
): { persona: PersonaContract; end: number } | undefined {
  const start = at + (stickyMatch(ARTICLE, text, at)?.[0].length ?? 0);
  for (const { pattern, persona } of matchers) {
    const match = stickyMatch(pattern, text, start);
    if (match) return { persona, end: start + match[0].length };
  }
  return undefined;
}

/** Reads "X, Y and the Z" at `at`; stops before a separator that is not followed by another persona. */
function readList(text: string, at: number, matchers: readonly Matcher[]): { found: Found[]; end: number } | undefined {
  const first = readItem(text, at, matchers);
  if (!first) return undefined;
  const found: Found[] = [{ at, persona: first.persona }];
  let end = first.end;
  for (;;) {
    const separator = stickyMatch(SEPARATOR, text, end);
    const next = separator ? readItem(text, end + separator[0].length, matchers) : undefined;
    if (!separator || !next) return { found, end };
    found.push({ at: end + separator[0].length, persona: next.persona });
    end = next.end;
  }
}

function headerNames(text: string, labels: readonly PersonaLabel[]): { found: Found[]; unknown: string[] } {
  const header = HEADER.exec(text);
  if (!header?.[1]) return { found: [], unknown: [] };
  const found: Found[] = [];
  const unknown: string[] = [];
  for (const raw of header[1].split(HEADER_ITEM_SEPARATOR)) {
    const item = raw.trim().replace(LEADING_ARTICLE, '');
    if (item === '') continue;
    const wanted = normalizeLabel(item);
    const label = labels.find(entry => entry.label === wanted);
    if (label) found.push({ at: header.index, persona: label.persona });
    else unknown.push(item);
  }
  return found.length > 0 ? { found, unknown } : { found: [], unknown: [] };
}

function addressedNames(text: string, matchers: readonly Matcher[]): Found[] {
  const found: Found[] = [];
  for (const trigger of text.matchAll(ADDRESS)) {
    const list = readList(text, trigger.index + trigger[0].length, matchers);
    if (list && stickyMatch(CLAUSE_BOUNDARY, text, list.end)) found.push(...list.found);
  }
  return found;
}

function mentionedNames(text: string, labels: readonly PersonaLabel[]): Found[] {
  const found: Found[] = [];
  for (const mention of text.matchAll(MENTION)) {
    const wanted = normalizeLabel(mention[1] ?? '');
    const label = labels.find(entry => entry.label === wanted);
    if (label) found.push({ at: mention.index, persona: label.persona });
  }
  return found;
}

/**
 * The personas the user explicitly named in `request` (see the forms above), in order of appearance.
 * An empty `personas` list means no override: the panel is chosen by classification.
 */
export function explicitPersonaNames(request: string, personas: readonly PersonaContract[]): ExplicitPersonaNames {
  const text = request.replace(/[\u2018\u2019]/g, "'");
  const labels = personaLabels(personas);
  const matchers = matchersFor(labels);
  const header = headerNames(text, labels);
  const found = [...header.found, ...addressedNames(text, matchers), ...mentionedNames(text, labels)];
  const ordered = found.map((entry, index) => ({ ...entry, index })).sort((a, b) => a.at - b.at || a.index - b.index);
  const unique = new Map<string, PersonaContract>();
  for (const { persona } of ordered) if (!unique.has(persona.id)) unique.set(persona.id, persona);
  return { personas: [...unique.values()], unknownNames: header.unknown };
}
