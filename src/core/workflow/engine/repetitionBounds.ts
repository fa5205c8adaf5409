/**
 * How often a deep-work run may repeat work: one bound per kind of repetition, each enforced in exactly one place
 * (named below) and exported so the cost forecast counts the same numbers the run obeys.
 */
export const REPETITION_BOUNDS = {
  /**
   * Reruns a /plan stage's collector may ask for in one pass of its stage (so at most `reruns + 1` collector rounds);
   * a further `rerun` decision is declined and the stage goes on with its results. Enforced in `runStage`
   * (`core/plan/stages/stageDescriptor.ts`).
   */
  reruns: 2,
  /**
   * Context reconstructions per pass of a /plan stage: the context manager re-runs one agent with a rebuilt context
   * (for a degenerate loop or the agent's own request) at most this often; a further request is declined and the
   * agent's result stands. Enforced in `LoopRecovery.reconstruct` (`core/plan/stages/loopRecovery.ts`).
   */
  reconstructions: 1,
  /**
   * Route-backs in one run, whoever asks (a collector's `route_back`, the context manager routing to an earlier
   * stage's agents); a further one is refused and the phase goes on. Enforced where a route-back is decided, in
   * `runWorkflow` (`WorkflowLimits.maxRouteBacks`).
   */
  routeBacks: 1,
  /**
   * Passes through one phase, whoever asks (a repeat at a checkpoint, a route-back, Try again after a failure).
   * Enforced in `PhaseCursor.passRefusal` (`WorkflowLimits.maxPhasePasses`).
   */
  phasePasses: 5,
} as const;
