import type { z } from 'zod';
import type { ChatMessage } from '../../llm/languageModel';
import type { Contribution } from '../contributors/promptContributor';
import type { ReconstructedContext } from '../contextManager/routing';
import type { DraftRequest } from '../drafts/draftRequest';
import type { HandoffParty } from '../handoff/envelope';
import type { AgentType, PipelineStage } from '../schemas/agentType';
import type { CollectorDecision } from '../schemas/consolidation';
import type { DelegationTemplate } from '../schemas/delegation';
import { contributionsFor } from './agentContributions';
import { invokeAgent } from './agentInvocation';
import type { AgentRun } from './previousAttempt';
import { handOffModelDraft } from './stageHandoff';
import type { StageEnvironment } from './stageEnvironment';

/** Where a stage's handoffs sit in the run's chain. */
export interface ChainPosition {
  readonly depth: number;
  readonly parentHandoffId?: string;
}

/** What every collector's full result carries. */
export interface CollectorResultBase {
  readonly resultId: string;
  readonly decision: CollectorDecision;
  readonly consolidatedOutput: string;
}

/** A consolidation: the full result (kept with the run) and the accepted handoff of its curated context. */
export interface CollectedResult<Result extends CollectorResultBase> {
  readonly decision: CollectorDecision;
  readonly result: Result;
  readonly handoffId: string;
}

/** What the shared collector step hands a stage's prompt, beside the stage's own props. */
export interface CollectorPromptParts {
  readonly contributions: Contribution[];
  readonly previous?: { readonly attemptNumber: number; readonly serializedOutput: string };
  readonly guidance?: ReconstructedContext;
}

/** The ids a collector's result and curated context are filed under. */
export interface CollectorIds {
  readonly resultId: string;
  readonly curatedId: string;
  /** Root, the stages before, the delegation and the agents' results: the result's upstream chain. */
  readonly chainIds: readonly string[];
}

/**
 * What makes one stage's collector its own: its prompt, its draft request, how it curates, and whom it hands to.
 * Everything else (ids, contributions, the previous round, the handoff with repair, the invocation record) is shared.
 */
export interface CollectorSpec<R, D, C, Result extends CollectorResultBase> {
  readonly stage: PipelineStage;
  readonly agentType: AgentType;
  /** The request type recorded in history, e.g. `DiscoveryCollectorRequest`. */
  readonly inputType: string;
  /** How the agents' results are named in the recorded input (`reports`, `results`). */
  readonly inputName: string;
  readonly delegation: DelegationTemplate;
  /** Context ids upstream of the delegation (root first, then the stages before). */
  readonly upstream: readonly string[];
  readonly next: HandoffParty;
  readonly payloadName: string;
  readonly contextSchema: z.ZodType<C>;
  readonly knownTickets?: ReadonlySet<string>;
  /** The tool name and description the model is asked for, and the draft schema built for this request. */
  readonly name: string;
  readonly description: string;
  draftRequest(runs: readonly AgentRun<R>[]): DraftRequest<D>;
  render(
    runs: readonly AgentRun<R>[],
    parts: CollectorPromptParts,
  ): Promise<{ readonly messages: readonly ChatMessage[] }>;
  /** The curated context for the next stage and the full result, from the accepted draft. */
  complete(draft: D, ids: CollectorIds, runs: readonly AgentRun<R>[]): { readonly curated: C; readonly result: Result };
}

/**
 * Runs a stage's collector for `round`: consolidate the agents' results, curate, and hand the curated context to the
 * next stage (validated, repaired by the model when rejected). A later round consolidates new results, so it is a
 * different request, not a repetition.
 */
export async function runCollector<R, D, C, Result extends CollectorResultBase>(
  env: StageEnvironment,
  spec: CollectorSpec<R, D, C, Result>,
  runs: readonly AgentRun<R>[],
  round: number,
  chain: ChainPosition,
  previous?: CollectedResult<Result>,
): Promise<CollectedResult<Result>> {
  const agentId = spec.agentType;
  return invokeAgent(
    env,
    {
      stage: spec.stage,
      agentType: spec.agentType,
      agentId,
      action: 'consolidate',
      inputType: round === 1 ? spec.inputType : `${spec.inputType}+PreviousContext`,
      input: {
        round,
        [spec.inputName]: runs.map(run => run.contextId),
        previousResultId: previous?.result.resultId ?? null,
      },
      upstreamContextIds: runs.map(run => run.contextId),
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue(spec.agentType);
      const curatedId = env.contextIds.issue(spec.agentType);
      const ids: CollectorIds = {
        resultId,
        curatedId,
        chainIds: [...spec.upstream, spec.delegation.resultId, ...runs.map(run => run.contextId)],
      };
      const prompt = await spec.render(runs, {
        contributions: await contributionsFor(env, spec.agentType, resultId),
        ...(previous === undefined
          ? {}
          : { previous: { attemptNumber: round - 1, serializedOutput: previous.result.consolidatedOutput } }),
        ...(guidance === undefined ? {} : { guidance }),
      });
      // The handoff carries the curated context; the full result is kept beside it (the last accepted draft's).
      let result: Result | undefined;
      const accepted = await handOffModelDraft(env, {
        source: { agentId, agentType: spec.agentType },
        target: spec.next,
        payloadName: spec.payloadName,
        schema: spec.contextSchema,
        chain,
        stage: spec.stage,
        ...(spec.knownTickets ? { knownTickets: spec.knownTickets } : {}),
        draft: {
          ...spec.draftRequest(runs),
          name: spec.name,
          description: spec.description,
          messages: prompt.messages,
          meter,
        },
        complete: draft => {
          const completed = spec.complete(draft, ids, runs);
          result = completed.result;
          return completed.curated;
        },
      });
      const collected = result;
      if (collected === undefined)
        throw new Error(`${agentId}: the accepted handoff left no result (handOffModelDraft must call complete)`);
      env.knownContextIds.add(resultId).add(curatedId);
      return {
        value: { decision: collected.decision, result: collected, handoffId: accepted.handoffId },
        output: collected,
        contextId: resultId,
      };
    },
  );
}
