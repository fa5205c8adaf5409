import type { z } from 'zod';
import { isObject, type JsonObject } from '../../llm/replyNormalizing';
import type { ReplyNormalizer } from '../../llm/structuredOutput';
import type { Note } from './normalizing';

/** What a model is asked for in one request: the schema built for this moment, and the fixes applied before validation. */
export interface DraftRequest<D> {
  readonly schema: z.ZodType<D>;
  readonly normalize: ReplyNormalizer;
}

/** A request whose fixes apply to a reply that is an object (any other reply is left for validation to report). */
export function draftRequest<D>(schema: z.ZodType<D>, fix: (reply: JsonObject, note: Note) => void): DraftRequest<D> {
  return {
    schema,
    normalize: (reply, note) => {
      if (isObject(reply)) fix(reply, note);
      return reply;
    },
  };
}
