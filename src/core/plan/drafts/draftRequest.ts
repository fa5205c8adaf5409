import type { z } from 'zod';
import type { ReplyNormalizer } from '../../llm/structuredOutput';

/** What a model is asked for in one request: the schema built for this moment, and the fixes applied before validation. */
export interface DraftRequest<D> {
  readonly schema: z.ZodType<D>;
  readonly normalize: ReplyNormalizer;
}

/** A schema's vocabulary as a request is given it: the files as a set, for the normalizers (the schema lists them). */
export type RequestVocabulary<V extends { readonly files: readonly string[] }> = Omit<V, 'files'> & {
  readonly files: ReadonlySet<string>;
};

/** The vocabulary as the schema reads it: the files sorted. */
export function sortedFiles<V extends { readonly files: ReadonlySet<string> }>(vocabulary: V) {
  return { ...vocabulary, files: [...vocabulary.files].sort() };
}
