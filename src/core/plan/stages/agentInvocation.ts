import { CancelledError } from '../../llm/languageModel';
import { runContextManager } from '../contextManager/runContextManager';
import { detectDegenerateLoop, type DegenerateLoop } from '../contextManager/degenerateLoop';
import type { ReconstructedContext } from '../contextManager/routing';
import type { AgentType, PipelineStage } from '../schemas/agentType';
import { ForkedMeter } from './forkedMeter';
import { NeedsUserInput } from '../../workflow/engine/needsUserInput';
import type { StageEnvironment } from './stageEnvironment';

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
export type Attempt<T> = (meter: ForkedMeter, guidance?: ReconstructedContext) => Promise<Produced<T>>;

function asJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null)) as Json;
}

function estimateOutputTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Runs one attempt and records it on the blackboard (succeeded or failed, tokens included), then rethrows any failure. */
async function recordInvocation<T>(
  env: StageEnvironment,
  spec: InvocationSpec,
  attempt: Attempt<T>,
  guidance?: ReconstructedContext,
): Promise<T> {
  const startedAt = env.clock.now();
  const meter = new ForkedMeter(env.usage);
  const base = {
    agentType: spec.agentType,
    agentId: spec.agentId,
    action: spec.action,
    inputType: spec.inputType,
    input: spec.input,
    upstreamContextIds: [...spec.upstreamContextIds],
  };
  const tokens = () => ({ input: meter.tally.promptTokens, output: estimateOutputTokens(meter.tally.outputChars) });
  try {
    const produced = await attempt(meter, guidance);
    await env.history.record({
      ...base,
      outcome: { status: 'succeeded', output: asJson(produced.output) },
      ...(produced.contextId === undefined ? {} : { contextId: produced.contextId }),
      startedAt,
      endedAt: env.clock.now(),
      tokens: tokens(),
    });
    return produced.value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const kind = error instanceof CancelledError ? 'cancelled' : error instanceof Error ? error.name : 'unknown';
    await env.history.record({
      ...base,
      outcome: { status: 'failed', error: { message: message || kind, kind } },
      startedAt,
      endedAt: env.clock.now(),
      tokens: tokens(),
    });
    throw error;
  }
}

/** Asks the context manager what to do about `loop`; records its own invocation too. */
async function consultContextManager(env: StageEnvironment, spec: InvocationSpec, loop: DegenerateLoop) {
  const history = await env.history.snapshot();
  return recordInvocation(
    env,
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
    async meter => {
      // Only the stuck agent's own type is offered, so the decision routes back to exactly that one agent.
      const onNormalized = (changes: readonly string[]): void =>
        env.onProgress({
          kind: 'reply-normalized',
          stage: spec.stage,
          agentId: 'context-manager',
          reply: 'route_context',
          changes,
        });
      const result = await runContextManager({
        model: env.model,
        loop,
        history,
        agents: [loop.agentType],
        token: env.token,
        goal: env.goal,
        usage: meter,
        onNormalized,
      });
      return { value: result.routing, output: result.routing };
    },
  );
}

/**
 * Invokes an agent and records it; then checks the history for a degenerate loop of this agent. On a loop the
 * context manager decides: re-run this agent once with the reconstructed context (a different request type,
 * so the re-run itself is not another repetition), or stop and ask the user (NeedsUserInput).
 */
export async function invokeAgent<T>(env: StageEnvironment, spec: InvocationSpec, attempt: Attempt<T>): Promise<T> {
  const value = await recordInvocation(env, spec, attempt);
  const loop = detectDegenerateLoop((await env.history.snapshot()).items, { threshold: env.options.loopThreshold });
  if (loop === undefined || loop.agentId !== spec.agentId) return value;
  env.onProgress({
    kind: 'loop-detected',
    stage: spec.stage,
    agentId: spec.agentId,
    repetitionCount: loop.repetitionCount,
  });
  const routing = await consultContextManager(env, spec, loop);
  if (routing.next.kind === 'ask_user') {
    env.onProgress({ kind: 'context-manager', stage: spec.stage, outcome: 'ask_user', detail: routing.next.question });
    throw new NeedsUserInput(routing.next.question, routing.reason, spec.agentId);
  }
  env.onProgress({
    kind: 'context-manager',
    stage: spec.stage,
    outcome: 'route',
    detail: `${spec.agentId}: ${routing.next.context.instructions}`,
  });
  return recordInvocation(
    env,
    {
      ...spec,
      inputType: `${spec.inputType}+ReconstructedContext`,
      input: asJson({ request: spec.input, reconstructedContext: routing.next.context }),
    },
    attempt,
    routing.next.context,
  );
}
