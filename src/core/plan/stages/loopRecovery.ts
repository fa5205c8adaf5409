import { runContextManager } from '../contextManager/runContextManager';
import { detectDegenerateLoop } from '../contextManager/degenerateLoop';
import {
  loopRequest,
  type ContextManagerCase,
  type ContextManagerRequest,
  type ContextManagerRoutingRequest,
} from '../contextManager/contextManagerRequest';
import type { ReconstructedContext } from '../contextManager/routing';
import {
  PIPELINE_STAGES,
  STAGE_AGENT_TYPES,
  STAGE_COLLECTOR_TYPES,
  type AgentType,
  type PipelineStage,
} from '../schemas/agentType';
import { REPETITION_BOUNDS } from '../../workflow/engine/repetitionBounds';
import { NeedsUserInput } from '../../workflow/engine/needsUserInput';
import type { BlackboardHistory, InvocationRecord } from '../history/blackboardHistory';
import type { HistorySnapshot } from '../history/historyItem';
import type { Clock } from '../../clock';
import { CancelledError, type CancellationSignal, type LanguageModel } from '../../llm/languageModel';
import type { ContextIdIssuer } from './contextIdIssuer';
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
  /** The stage's feedback, handed to the context manager as its request's additional context. */
  readonly feedback?: string;
  readonly contextIds: ContextIdIssuer;
  readonly onProgress: ProgressListener;
  readonly options: PipelineOptions;
}

/** Where the context manager routed a stage's work on to: another stage's agents, the context for them, and why. */
export interface StageRedirect {
  readonly stage: PipelineStage;
  readonly context: ReconstructedContext;
  readonly reason: string;
}

/**
 * The one port the stages call to run an agent (spec 001's loop recovery): every attempt is recorded on the run's
 * history. Once per round of a stage's agents, `recoverAmong` reads it, and a collector's `proceed` comes to `proceed`:
 * the context manager — it investigates the history with the read-only history tools and may add notes on items —
 * routes a reconstructed context to one agent type (a re-run of the agent with it is a different request type, so
 * not another repetition) or stops and asks the user (NeedsUserInput).
 */
export class LoopRecovery {
  /** Contexts the context manager rebuilt for this stage's agents in this pass (`REPETITION_BOUNDS.reconstructions`). */
  private reconstructions = 0;
  /**
   * Where the context manager sent the run beyond this stage's own agents: the next stage's (`proceed`) or an earlier
   * stage's (a route-back, decided by the engine), with the context for them. Read once the stage has run.
   */
  redirect: StageRedirect | undefined;

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
   * After a round of `stage`'s agents (`agentIds`): is one of them looping, or did one ask for its context to be
   * rebuilt (`asked`, its reply's `contextRequest`)? A loop comes first. The context manager then rebuilds the context
   * (spec 001 INTROSPECT_AGENT_CONTEXT) and routes it to this stage's agents (the agent re-runs once with it: returned),
   * its collector (returned with the collector's id: it consolidates with it) or an earlier stage's agents (a
   * route-back: `redirect`), or asks the user (throws NeedsUserInput). At most
   * `REPETITION_BOUNDS.reconstructions` per pass of the stage, counted here and nowhere else; a request past it is
   * declined with a `limit-reached` line and the agent's result stands.
   */
  async recoverAmong(
    stage: PipelineStage,
    agentIds: ReadonlySet<string>,
    asked: readonly { readonly agentId: string; readonly request: ContextManagerRoutingRequest }[],
  ): Promise<{ readonly agentId: string; readonly guidance: ReconstructedContext } | undefined> {
    const { deps } = this;
    const history = this.history.snapshot();
    const own = PIPELINE_STAGES.indexOf(stage);
    // This stage's agents and its collector, then the earlier stages' agents (a route-back), nearest first.
    const destinations = [
      STAGE_AGENT_TYPES[stage],
      STAGE_COLLECTOR_TYPES[stage],
      ...PIPELINE_STAGES.slice(0, own)
        .reverse()
        .map(s => STAGE_AGENT_TYPES[s]),
    ];
    const loop = detectDegenerateLoop(
      history.items.filter(item => agentIds.has(item.agentId)),
      deps.options.loopThreshold,
    );
    const requests: ContextManagerCase[] = asked.map(({ agentId, request }) => ({
      ...request,
      agentId,
      agentType: STAGE_AGENT_TYPES[stage],
      evidence: history.items.filter(item => item.agentId === agentId).slice(-1),
      destinations,
    }));
    if (loop !== undefined) {
      deps.onProgress({ kind: 'loop-detected', stage, agentId: loop.agentId, repetitionCount: loop.repetitionCount });
      requests.unshift(loopRequest(loop, [loop.agentType, ...destinations.filter(type => type !== loop.agentType)]));
    }
    for (const { agentId, request } of asked)
      deps.onProgress({ kind: 'context-requested', stage, agentId, reason: request.reason });
    // One per round (the agent re-runs before its collector), within the pass's bound; the others' results stand.
    const [request, ...declined] = requests;
    if (request === undefined) return undefined;
    const spent = this.reconstructions >= REPETITION_BOUNDS.reconstructions;
    for (const other of spent ? requests : declined)
      deps.onProgress({
        kind: 'limit-reached',
        stage,
        message: spent
          ? `${other.agentId} needs its context rebuilt, but the context manager already rebuilt one in this pass of the ${stage} stage (the most one pass takes: ${REPETITION_BOUNDS.reconstructions}); its result stands.`
          : `${other.agentId} asked for its context to be rebuilt, but the context manager rebuilds one agent's per round (${request.agentId}'s now); its result stands.`,
      });
    if (spent) return undefined;
    this.reconstructions += 1;
    const routing = await this.route(stage, request, history);
    if (routing.stage !== stage) {
      this.redirect = routing;
      return undefined;
    }
    // Routed to this stage's collector, it consolidates with the context (the agent is not re-run).
    const collector = STAGE_COLLECTOR_TYPES[stage];
    return { agentId: routing.to === collector ? collector : request.agentId, guidance: routing.context };
  }

  /**
   * A `stage` collector decided `proceed` (spec 001 transition 2): the context manager rebuilds the context from the
   * history and routes the consolidated result on to the next stage's agents, or back to an earlier stage's (a
   * route-back), or asks the user. Where it goes is `redirect`. Once per pass at most: `proceed` ends the pass.
   */
  async proceed(stage: PipelineStage, collectorType: AgentType, reason: string): Promise<void> {
    const history = this.history.snapshot();
    const own = PIPELINE_STAGES.indexOf(stage);
    const next = PIPELINE_STAGES[own + 1];
    if (next === undefined) return;
    this.redirect = await this.route(
      stage,
      {
        type: 'proceed',
        reason,
        agentId: collectorType,
        agentType: collectorType,
        evidence: history.items.filter(item => item.agentId === collectorType).slice(-1),
        destinations: [next, ...PIPELINE_STAGES.slice(0, own)].map(s => STAGE_AGENT_TYPES[s]),
      },
      history,
    );
  }

  /**
   * The context manager's decision on a case, asked as spec 001's ContextManagerRequest (its own context id, the
   * run's goal, the stage's feedback): the stage and agent type that get the rebuilt context, or the user's question.
   */
  private async route(stage: PipelineStage, asked: ContextManagerCase, history: HistorySnapshot) {
    const { deps } = this;
    const request: ContextManagerRequest = {
      ...asked,
      contextId: deps.contextIds.issue('context-manager'),
      goal: deps.goal,
      ...(deps.feedback === undefined ? {} : { additionalContext: deps.feedback }),
    };
    const routing = await this.consultContextManager(stage, request, history);
    if (routing.next.kind === 'ask_user') {
      deps.onProgress({ kind: 'context-manager', stage, outcome: 'ask_user' });
      throw new NeedsUserInput(routing.next.question, routing.reason);
    }
    const { targetAgentType, context } = routing.next;
    deps.onProgress({ kind: 'context-manager', stage, outcome: 'route', to: targetAgentType });
    const target =
      PIPELINE_STAGES.find(s =>
        [STAGE_AGENT_TYPES[s], STAGE_COLLECTOR_TYPES[s]].includes(targetAgentType as AgentType),
      ) ?? stage;
    return { stage: target, to: targetAgentType, context, reason: routing.reason };
  }

  /** Asks the context manager about `request`; records its own invocation (spec 001's ContextManagerRequest) too. */
  private async consultContextManager(stage: PipelineStage, request: ContextManagerRequest, history: HistorySnapshot) {
    const { deps } = this;
    const record = this.begin({
      agentType: 'context-manager',
      agentId: 'context-manager',
      action: 'reconstruct-context',
      inputType: 'ContextManagerRequest',
      input: asJson({
        contextId: request.contextId,
        type: request.type,
        reason: request.reason,
        agentId: request.agentId,
        evidenceItemIds: request.evidence.map(item => item.itemId),
        returnTo: request.destinations,
        ...(request.additionalContext === undefined ? {} : { additionalContext: request.additionalContext }),
      }),
      upstreamContextIds: [],
    });
    try {
      const routing = await runContextManager({
        model: deps.model,
        request,
        history,
        token: deps.token,
        addNote: note => this.history.addNote({ ...note, authorAgent: 'context-manager' }, deps.clock.now()),
        onNormalized: changes =>
          deps.onProgress({
            kind: 'reply-normalized',
            stage,
            agentId: 'context-manager',
            reply: 'route_context',
            changes,
          }),
      });
      record.succeeded(routing, request.contextId);
      return routing;
    } catch (error) {
      record.failed(error);
      throw error;
    }
  }
}
