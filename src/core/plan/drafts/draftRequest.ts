import type { z } from 'zod';
import type { ReplyNormalizer } from '../../llm/structuredOutput';

/** What a model is asked for in one request: the schema built for this moment, and the fixes applied before validation. */
export interface DraftRequest<D> {
  readonly schema: z.ZodType<D>;
  readonly normalize: ReplyNormalizer;
}
