import { z } from 'zod';

/** An opaque entity id; production ids are UUIDs from the IdSource port, tests use readable fixed ids. */
export const EntityId = z.string().min(1);
export type EntityId = z.infer<typeof EntityId>;

/** An ISO-8601 timestamp as produced by the Clock port. */
export const Timestamp = z.iso.datetime({ offset: true });
export type Timestamp = z.infer<typeof Timestamp>;

/** True when the text has no visible characters: blank answers and summaries say nothing. */
export function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim().length === 0;
}

/** Text that must say something (not empty, not only whitespace). */
export const NonBlankText = z.string().refine(text => !isBlank(text), { message: 'must not be blank' });
