import { canonicalizeArray, canonicalIn, dedupeArray } from '../llm/replyNormalizing';
import type { ReplyNormalizer } from '../llm/structuredOutput';
import type { PersonaContract } from './contract';
import { DEBATE_OUTLOOKS } from '../session/debateOutlook';

/**
 * The select_personas reply's ids made usable where the intent is clear: an id in another case, or a
 * persona's name in place of its id, is read as that persona's id; an unknown id and a repeated id are
 * dropped (each noted). Too few personas left is for the repair loop. An outlook Council does not know is dropped
 * (noted): the forecast only falls back to its middle case, which is not worth a repair request.
 */
export function selectionNormalizer(personas: readonly PersonaContract[]): ReplyNormalizer {
  const names = Object.fromEntries(personas.map(p => [p.name, p.id]));
  const canonical = canonicalIn(
    personas.map(p => p.id),
    names,
  );
  return (reply, note) => {
    canonicalizeArray(reply, 'personaIds', undefined, canonical, 'persona id', note);
    dedupeArray(reply, 'personaIds', undefined, 'persona id', note);
    if (typeof reply === 'object' && reply !== null && 'outlook' in reply) {
      const fields = reply as Record<string, unknown>;
      if (!(DEBATE_OUTLOOKS as readonly unknown[]).includes(fields.outlook)) {
        note(`dropped the outlook ${JSON.stringify(fields.outlook)}, which is none of ${DEBATE_OUTLOOKS.join(', ')}`);
        delete fields.outlook;
      }
    }
    return reply;
  };
}
