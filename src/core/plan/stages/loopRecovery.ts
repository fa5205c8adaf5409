import { runContextManager } from '../contextManager/runContextManager';
import { detectDegenerateLoop, type DegenerateLoop } from '../contextManager/degenerateLoop';
import type { ReconstructedContext } from '../contextManager/routing';
import type { AgentType, PipelineStage } from '../schemas/agentType';
import { NeedsUserInput } from '../../workflow/engine/needsUserInput';
import type { BlackboardHistory, InvocationRecord } from '../history/blackboardHistory';
import type { HistorySnapshot } from '../history/historyItem';
import type { Clock } from '../../clock';
import { CancelledError, type CancellationSignal, type LanguageModel } from '../../llm/languageModel';
import type { PipelineOptions } from './pipelineOptions';
import type { ProgressListener } from './progressEvents';

/**
 * Who is invoked, for what, with which (JSON) input, and the upstream contexts it was given; `action` with
 * `inputType` is what loop detection compares.
 */
export type InvocationSpec = Pick<
  InvocationRecord,
  'agentId' | 'action' | 'inputType' | 'input' | 'upstreamContextIds'
> & {
  readonly agentType: AgentType;
};

function asJson(value: unknown): InvocationSpec['input'] {
  return JSON.parse(JSON.stringify(value ?? null)) as InvocationSpec['input'];
}

/** What loop recovery needs from a stage's call besides the run's history: the model it may spend on, and its bound. */
interface LoopRecoveryDeps {
  readonly model: LanguageModel;
  readonly token: CancellationSignal;
  readonly clock: Clock;
  readonly goal: string;
  readonly onProgress: ProgressListener;
  readonly options: PipelineOptions;
}

/**
 * The one port the stages call to run an agent (spec 001's loop recovery): every attempt is recorded on the run's
 * history. Once per round of a stage's agents, `loopAmong` reads it: on a loop of one of those agents the context
 * manager decides — it investigates the history with the read-only history tools, the only tools it is offered — to
 * re-run that agent once with a reconstructed context (a different request type, so the re-run is not another
 * repetition) or to stop and ask the user (NeedsUserInput).
 */
export class LoopRecovery {
  constructor(
    private readonly history: BlackboardHistory,
    private readonly deps: LoopRecoveryDeps,
  ) {}

  /**
   * Starts one attempt's record: the request as the history keeps it (with `guidance`, the context manager's, the
   * reconstructed-context request it is) and when it began. The caller says how it ended, once, as it ends: what it
   * produced (its JSON, its result's context id) or its failure.
   */
  begin(spec: InvocationSpec, guidance?: ReconstructedContext) {
    const { history } = this;
    const { clock } = this.deps;
    const base =
      guidance === undefined
        ? spec
        : {
            ...spec,
            inputType: `${spec.inputType}+ReconstructedContext`,
            input: asJson({ request: spec.input, reconstructedContext: guidance }),
          };
    const startedAt = clock.now();
    return {
      succeeded: (output: unknown, contextId?: string): void =>
        void history.record({
          ...base,
          outcome: { status: 'succeeded', output: asJson(output) },
          ...(contextId === undefined ? {} : { contextId }),
          startedAt,
          endedAt: clock.now(),
        }),
      failed: (error: unknown): void => {
        const message = error instanceof Error ? error.message : String(error);
        const kind = error instanceof CancelledError ? 'cancelled' : error instanceof Error ? error.name : 'unknown';
        history.record({
          ...base,
          outcome: { status: 'failed', error: { message: message || kind, kind } },
          startedAt,
          endedAt: clock.now(),
        });
      },
    };
  }

  /**
   * After a round of `stage`'s agents: is one of `agentIds` looping? Undefined when none is; the agent to re-run once
   * with the context manager's reconstructed context when it re-routes one; throws NeedsUserInput when it asks the user.
   */
  async loopAmong(
    stage: PipelineStage,
    agentIds: ReadonlySet<string>,
  ): Promise<{ readonly agentId: string; readonly guidance: ReconstructedContext } | undefined> {
    const { deps } = this;
    const history = this.history.snapshot();
    const loop = detectDegenerateLoop(
      history.items.filter(item => agentIds.has(item.agentId)),
      deps.options.loopThreshold,
    );
    if (loop === undefined) return undefined;
    deps.onProgress({ kind: 'loop-detected', stage, agentId: loop.agentId, repetitionCount: loop.repetitionCount });
    const routing = await this.consultContextManager(stage, loop, history);
    if (routing.next.kind === 'ask_user') {
      deps.onProgress({ kind: 'context-manager', stage, outcome: 'ask_user' });
      throw new NeedsUserInput(routing.next.question, routing.reason);
    }
    deps.onProgress({ kind: 'context-manager', stage, outcome: 'route' });
    return { agentId: loop.agentId, guidance: routing.next.context };
  }

  /** Asks the context manager what to do about `loop`; records its own invocation too. */
  private async consultContextManager(stage: PipelineStage, loop: DegenerateLoop, history: HistorySnapshot) {
    const { deps } = this;
    const record = this.begin({
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
    });
    try {
      // Only the stuck agent's own type is offered, so the decision routes back to exactly that one agent.
      const routing = await runContextManager({
        model: deps.model,
        loop,
        history,
        agents: [loop.agentType],
        token: deps.token,
        goal: deps.goal,
        onNormalized: changes =>
          deps.onProgress({
            kind: 'reply-normalized',
            stage,
            agentId: 'context-manager',
            reply: 'route_context',
            changes,
          }),
      });
      record.succeeded(routing);
      return routing;
    } catch (error) {
      record.failed(error);
      throw error;
    }
  }
}
