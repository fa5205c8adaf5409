import { CancelledError } from '../../llm/languageModel';
import { runContextManager } from '../contextManager/runContextManager';
import { detectDegenerateLoop, type DegenerateLoop } from '../contextManager/degenerateLoop';
import type { ReconstructedContext } from '../contextManager/routing';
import type { AgentType, PipelineStage } from '../schemas/agentType';
import { NeedsUserInput } from '../../workflow/engine/needsUserInput';
import type { Clock } from '../../clock';
import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { BlackboardHistory } from '../history/blackboardHistory';
import type { ProgressListener } from './progressEvents';

/** JSON as the history stores it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Who is invoked, for what, with which (JSON) input. */
export interface InvocationSpec {
  readonly stage: PipelineStage;
  readonly agentType: AgentType;
  readonly agentId: string;
  /** What the agent does, e.g. `discover`. */
  readonly action: string;
  /** Request type, e.g. `DiscoveryAgentRequest`; together with `action` it is what loop detection compares. */
  readonly inputType: string;
  readonly input: Json;
  readonly upstreamContextIds: readonly string[];
}

/** What one attempt produced: the value, its JSON for the history, and the context id of the result. */
export interface Produced<T> {
  readonly value: T;
  readonly output: unknown;
  readonly contextId?: string;
}

/** One attempt of an agent; `guidance` is set when the context manager rebuilt its context. */
export type Attempt<T> = (guidance?: ReconstructedContext) => Promise<Produced<T>>;

function asJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null)) as Json;
}

/** What loop recovery needs from a stage's call: the run's history, and the model it may spend on. */
export interface LoopRecoveryDeps {
  readonly history: BlackboardHistory;
  readonly model: LanguageModel;
  readonly token: CancellationSignal;
  readonly clock: Clock;
  readonly goal: string;
  /** Repetitions of one action with one request type that make a loop. */
  readonly loopThreshold: number;
  readonly onProgress: ProgressListener;
}

/**
 * The one port the stages call to run an agent (spec 001's loop recovery): every attempt is recorded on the run's
 * history; after each, `detectDegenerateLoop` reads it. On a loop of this agent the context manager decides — it
 * investigates the history with the read-only history tools, the only tools it is offered — to re-run the agent once
 * with a reconstructed context (a different request type, so the re-run is not another repetition) or to stop and
 * ask the user (NeedsUserInput).
 */
export class LoopRecovery {
  constructor(private readonly deps: LoopRecoveryDeps) {}

  async invoke<T>(spec: InvocationSpec, attempt: Attempt<T>): Promise<T> {
    const { deps } = this;
    const value = await this.recorded(spec, attempt);
    const loop = detectDegenerateLoop((await deps.history.snapshot()).items, { threshold: deps.loopThreshold });
    if (loop === undefined || loop.agentId !== spec.agentId) return value;
    deps.onProgress({
      kind: 'loop-detected',
      stage: spec.stage,
      agentId: spec.agentId,
      repetitionCount: loop.repetitionCount,
    });
    const routing = await this.consultContextManager(spec, loop);
    if (routing.next.kind === 'ask_user') {
      deps.onProgress({
        kind: 'context-manager',
        stage: spec.stage,
        outcome: 'ask_user',
        detail: routing.next.question,
      });
      throw new NeedsUserInput(routing.next.question, routing.reason, spec.agentId);
    }
    deps.onProgress({
      kind: 'context-manager',
      stage: spec.stage,
      outcome: 'route',
      detail: `${spec.agentId}: ${routing.next.context.instructions}`,
    });
    return this.recorded(
      {
        ...spec,
        inputType: `${spec.inputType}+ReconstructedContext`,
        input: asJson({ request: spec.input, reconstructedContext: routing.next.context }),
      },
      attempt,
      routing.next.context,
    );
  }

  /** Runs one attempt and records it (succeeded or failed), then rethrows any failure. */
  private async recorded<T>(spec: InvocationSpec, attempt: Attempt<T>, guidance?: ReconstructedContext): Promise<T> {
    const { history, clock } = this.deps;
    const startedAt = clock.now();
    const base = {
      agentType: spec.agentType,
      agentId: spec.agentId,
      action: spec.action,
      inputType: spec.inputType,
      input: spec.input,
      upstreamContextIds: [...spec.upstreamContextIds],
    };
    try {
      const produced = await attempt(guidance);
      await history.record({
        ...base,
        outcome: { status: 'succeeded', output: asJson(produced.output) },
        ...(produced.contextId === undefined ? {} : { contextId: produced.contextId }),
        startedAt,
        endedAt: clock.now(),
      });
      return produced.value;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const kind = error instanceof CancelledError ? 'cancelled' : error instanceof Error ? error.name : 'unknown';
      await history.record({
        ...base,
        outcome: { status: 'failed', error: { message: message || kind, kind } },
        startedAt,
        endedAt: clock.now(),
      });
      throw error;
    }
  }

  /** Asks the context manager what to do about `loop`; records its own invocation too. */
  private async consultContextManager(spec: InvocationSpec, loop: DegenerateLoop) {
    const { deps } = this;
    const history = await deps.history.snapshot();
    return this.recorded(
      {
        stage: spec.stage,
        agentType: 'context-manager',
        agentId: 'context-manager',
        action: 'reconstruct-context',
        inputType: 'ContextManagerRequest',
        input: asJson({
          loopAgentId: loop.agentId,
          action: loop.action,
          inputType: loop.inputType,
          repetitions: loop.repetitionCount,
        }),
        upstreamContextIds: [],
      },
      async () => {
        // Only the stuck agent's own type is offered, so the decision routes back to exactly that one agent.
        const onNormalized = (changes: readonly string[]): void =>
          deps.onProgress({
            kind: 'reply-normalized',
            stage: spec.stage,
            agentId: 'context-manager',
            reply: 'route_context',
            changes,
          });
        const result = await runContextManager({
          model: deps.model,
          loop,
          history,
          agents: [loop.agentType],
          token: deps.token,
          goal: deps.goal,
          onNormalized,
        });
        return { value: result.routing, output: result.routing };
      },
    );
  }
}
