import { dedupeArray, isObject } from '../../llm/replyNormalizing';
import { dropUnknownStrings, objectAt, type Note } from '../drafts/normalizing';

/** Routing fixes: each cited history item once, and only items that exist (an unknown one is dropped and noted). */
export function normalizeRouting(itemIds: ReadonlySet<string>): (reply: unknown, note: Note) => unknown {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    const context = objectAt(objectAt(reply, 'next'), 'context');
    for (const key of ['relevantItemIds', 'excludedItemIds']) {
      dedupeArray(context, key, undefined, 'history item', note);
      dropUnknownStrings(context, key, itemIds, 'history item', note);
    }
    return reply;
  };
}
