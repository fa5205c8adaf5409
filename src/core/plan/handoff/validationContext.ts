/** Ids and paths that exist, for the cross-reference layer; a kind left out is not checked. */
export interface KnownReferences {
  readonly contextIds?: ReadonlySet<string>;
  readonly ticketIds?: ReadonlySet<string>;
  /** Workspace-relative paths of files that exist. */
  readonly files?: ReadonlySet<string>;
  readonly handoffIds?: ReadonlySet<string>;
}

/** What validation needs to know about the world beyond the envelope. */
export interface HandoffValidationContext {
  /** ISO-8601 "now" from the Clock port (keeps validation deterministic). */
  readonly now: string;
  /** Deepest allowed delegation chain; default DEFAULT_MAX_HANDOFF_DEPTH. */
  readonly maxDepth?: number;
  /** How far a timestamp may run ahead of `now` before it counts as "in the future"; default 5 s. */
  readonly maxClockSkewMs?: number;
  readonly known?: KnownReferences;
}

/** Council's chain is user -> orchestrator -> stage orchestrator -> agent -> collector, plus room for context-manager reroutes. */
export const DEFAULT_MAX_HANDOFF_DEPTH = 6;

/** Default tolerance for clocks of different hosts disagreeing. */
export const DEFAULT_MAX_CLOCK_SKEW_MS = 5000;
