import { z } from 'zod';

/** What kind of thing the user attached to a request. */
export const AttachedKind = z.enum(['file', 'selection', 'symbol', 'text', 'tool']);
export type AttachedKind = z.infer<typeof AttachedKind>;

/**
 * One piece of context the user attached to a council request (`#file`, a selection, a symbol, a `#tool`'s
 * result), already bounded: `content` is what the prompts show as data, `note` says what was left out and why.
 * Stored with the session's input so later turns (answers, a retry after a reload) still see it.
 */
export const AttachedItem = z.object({
  /** Names the item for the user and the model: a workspace-relative path, `path:12-30`, a tool's name. */
  label: z.string(),
  kind: AttachedKind,
  /** The text shown to the model; absent when nothing could be included (binary, unreadable, over budget). */
  content: z.string().optional(),
  /** Why the content is cut, missing or marked (e.g. outside the workspace). */
  note: z.string().optional(),
});
export type AttachedItem = z.infer<typeof AttachedItem>;
