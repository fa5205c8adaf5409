import { z } from 'zod';
import type { DraftRequest } from '../drafts/draftRequest';
import type { HistoryItem } from '../history/historyItem';
import { isObject } from '../../llm/replyNormalizing';
import { nonBlank } from '../schemas/common';
import type { DegenerateLoop } from './degenerateLoop';

/**
 * Spec 001's ContextManagerRequestType: rebuild a stuck or asking agent's context (`introspect_agent_context`), or
 * route a consolidated (review/merge) result on to the downstream agents with a context rebuilt for them (`proceed`).
 */
export type ContextManagerRequestType = 'introspect_agent_context' | 'proceed';

/** Spec 001's ContextManagerRoutingRequest: what an agent (or a collector deciding `proceed`) asks for, and why. */
export interface ContextManagerRoutingRequest {
  readonly type: ContextManagerRequestType;
  readonly reason: string;
}

/**
 * The optional field of every /plan agent's reply by which the agent asks for reconstruction itself. Only
 * `introspect_agent_context` is offered (an agent's own `proceed` is its collector's decision), so the model writes
 * only the reason, as one string, and Council adds the type: the field rides in every agent request, and as an
 * object with a one-value `type` it cost twice as much. A reply in the object form is normalized to the string.
 */
const agentContextRequest = nonBlank()
  .transform((reason): ContextManagerRoutingRequest => ({ type: 'introspect_agent_context', reason }))
  .optional()
  .describe(
    'Only if the context given is not enough to do the task: what you lack. Council rebuilds it and runs you once more.',
  );

/** `reply`'s `contextRequest` given as spec 001's object ({type, reason}) becomes its reason, the form asked for. */
function contextRequestAsReason(reply: unknown, note: (change: string) => void): void {
  if (!isObject(reply)) return;
  const asked = reply['contextRequest'];
  if (!isObject(asked) || typeof asked['reason'] !== 'string') return;
  if (asked['type'] !== undefined && asked['type'] !== 'introspect_agent_context') return;
  reply['contextRequest'] = asked['reason'];
  note('contextRequest given as an object: its reason kept');
}

/** A case for the context manager as a stage sees it: who it is about, why, and where it may return. */
export interface ContextManagerCase extends ContextManagerRoutingRequest {
  /** The agent it is about: a stuck or asking agent, or the collector whose result proceeds. */
  readonly agentId: string;
  readonly agentType: string;
  /** The history items that show the case, oldest first (the repeated attempts; the asking or proceeding one). */
  readonly evidence: readonly HistoryItem[];
  /** The return destinations (agent types) the decision may route to; exactly one is chosen. */
  readonly destinations: readonly string[];
}

/**
 * Spec 001's ContextManagerRequest: the case with the run's part, added as it is asked. No `previousContext`: the
 * context manager is never re-run on a request (one decision each); its earlier decisions are history items it reads.
 */
export interface ContextManagerRequest extends ContextManagerCase {
  /** Its own context id (spec 000, agent type `context-manager`): its history item and decision carry it. */
  readonly contextId: string;
  /** The run's goal: what the reconstruction serves. */
  readonly goal: string;
  /** The feedback the stage was given (the user's at a checkpoint, a route-back's, a gap check's), to guide it. */
  readonly additionalContext?: string;
}

/** The request for a degenerate loop (spec 001 transition 1): the loop is the reason, its attempts the evidence. */
export function loopRequest(loop: DegenerateLoop, destinations: readonly string[]): ContextManagerCase {
  return {
    type: 'introspect_agent_context',
    reason: `it ran ${loop.action}(${loop.inputType}) ${loop.repetitionCount} times in a row; the limit is ${loop.threshold}`,
    agentId: loop.agentId,
    agentType: loop.agentType,
    evidence: loop.evidence,
    destinations,
  };
}

/** What an agent's reply carries besides its draft: its own request for reconstruction, if it made one. */
export type AskingDraft<D> = D & { readonly contextRequest?: ContextManagerRoutingRequest };

const asking = new WeakMap<DraftRequest<unknown>, DraftRequest<unknown>>();

/**
 * An agent's draft request with the optional `contextRequest` field (spec 001's ContextManagerRoutingRequest) added
 * to its schema; built once per request object, as the agents' requests are cached to keep their conversion off
 * the critical path. A schema that is not an object is returned as it is.
 */
export function withContextRequest<D>(request: DraftRequest<D>): DraftRequest<AskingDraft<D>> {
  const known = asking.get(request as DraftRequest<unknown>);
  if (known) return known as DraftRequest<AskingDraft<D>>;
  const { schema } = request;
  const built: DraftRequest<AskingDraft<D>> =
    schema instanceof z.ZodObject
      ? {
          ...request,
          schema: schema.safeExtend({ contextRequest: agentContextRequest }) as z.ZodType<AskingDraft<D>>,
          normalize: (reply, note) => {
            contextRequestAsReason(reply, note);
            return request.normalize(reply, note);
          },
        }
      : (request as DraftRequest<AskingDraft<D>>);
  asking.set(request as DraftRequest<unknown>, built as DraftRequest<unknown>);
  return built;
}
