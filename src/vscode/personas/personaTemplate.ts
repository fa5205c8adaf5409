/**
 * The starting point of a new workspace persona: valid front matter (so it loads at once) and an
 * instructions skeleton in the shape of the built-in personas. No `vscode` import: pure text.
 */

import { hyphenatedAscii } from '../workspace/fileNames';

/** Longest display name the create command accepts. */
const MAX_PERSONA_NAME_LENGTH = 60;

/**
 * The kebab-case id for a display name: "Database Admin (Postgres)" -> "database-admin-postgres".
 * Accents are dropped; an empty result means the name has no letters or digits.
 */
export function personaIdFromName(displayName: string): string {
  return hyphenatedAscii(displayName).replace(/^-+|-+$/g, '');
}

/** Why a display name cannot be used, or `undefined` when it can. */
export function validatePersonaName(displayName: string): string | undefined {
  const trimmed = displayName.trim();
  if (trimmed === '') return 'Enter a name, e.g. "Database Administrator".';
  if (trimmed.length > MAX_PERSONA_NAME_LENGTH) return `Keep the name under ${MAX_PERSONA_NAME_LENGTH} characters.`;
  if (personaIdFromName(trimmed) === '')
    return 'Use at least one letter or digit (a-z, 0-9) so the persona gets an id.';
  return undefined;
}

/** The file text of a new persona; `JSON.stringify` quotes the name as a valid YAML string whatever it contains. */
export function personaTemplate(displayName: string): string {
  const name = displayName.trim();
  const id = personaIdFromName(name);
  return `---
# Keep the id equal to the file name. Use a built-in id (e.g. security-expert) to override that persona.
id: ${id}
name: ${JSON.stringify(name)}
# One sentence: what this persona is responsible for in the council's debate.
role: ${JSON.stringify(`Reviews every proposal as the ${name} would and says what it would change.`)}
expertise:
  - replace with a concrete area of expertise
  - add one line per area
# Request kinds this persona is picked for: architecture, security, implementation, performance, testing,
# product, operations, data, ux, workflow, general.
relevantTo:
  - general
tone: Direct and concrete; explains the reasoning behind each recommendation.
# divergent widens the options (challenges, alternatives); convergent narrows them to a decision.
cognitiveMode: convergent
# Other names a user may type to ask for this persona, e.g. "ask the dba: ...".
aliases: []
---
You are the ${name} on the council. Describe in two or three sentences how you look at a request and what you care about most.

## What you bring
- The knowledge and experience the others on the council lack.

## How you argue
- Give concrete recommendations, with the reason and the trade-off for each.

## Push back when
- A proposal ignores the risks or constraints you know about.

## Concede when
- Another persona shows that your concern does not apply or costs more than it saves; say so explicitly.

## Your contribution
Say what the final answer must include from your point of view.
`;
}
