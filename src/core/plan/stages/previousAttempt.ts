import type { ContextManagerRoutingRequest } from '../contextManager/contextManagerRequest';
import type { PreviousContext } from '../schemas/previousContext';
import type { PreviousAttemptView } from '../prompts/commonSections';

/** An agent's finished attempt, as a stage keeps it. */
export interface AgentRun<R> {
  readonly agentId: string;
  readonly result: R;
  readonly contextId: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly finishedAt: string;
  /** The agent's own request for reconstruction, when its reply made one (spec 001 ContextManagerRoutingRequest). */
  readonly contextRequest?: ContextManagerRoutingRequest;
}

/** What a rerun agent gets: its previous attempt and why it must try again. */
export interface RerunInput<R> {
  readonly previous: AgentRun<R>;
  /** The collector's rationale (or a route-back's), shown as the previous attempt's error. */
  readonly feedback: string;
}

export type RerunnableAgent = 'discovery-agent' | 'planning-agent' | 'ticket-agent';

/** The spec-000 PreviousContext of a rerun, carrying the previous output, its error and the typed result. */
export function previousContextOf<R>(kind: RerunnableAgent, rerun: RerunInput<R>): PreviousContext {
  const { previous, feedback } = rerun;
  return {
    kind,
    previousContextId: previous.contextId,
    serializedOutput: JSON.stringify(previous.result),
    error: { message: feedback },
    attemptNumber: previous.attempt,
    previousAttemptAt: previous.finishedAt,
    previousResult: previous.result,
  } as PreviousContext;
}

/** The part of a PreviousContext a prompt shows. */
export function previousAttemptView(previous: PreviousContext): PreviousAttemptView {
  return {
    attemptNumber: previous.attemptNumber,
    serializedOutput: previous.serializedOutput,
    ...(previous.error === undefined ? {} : { error: previous.error.message }),
  };
}
