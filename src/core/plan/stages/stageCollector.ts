import { renderMessages } from '../../llm/prompting/render';
import type { ReconstructedContext } from '../contextManager/routing';
import type { DraftRequest } from '../drafts/draftRequest';
import { CollectorPrompt, type CollectorBrief } from '../prompts/collectorPrompt';
import { PIPELINE_STAGES } from '../schemas/agentType';
import type { DiscoveryCollectorResult } from '../schemas/collectors';
import type { CollectorVocabulary } from '../schemas/consolidation';
import type { CollectorRecordStamp } from '../schemas/recordStamp';
import { SCHEMA_VERSION } from '../schemas/version';
import { contributionsFor } from './agentContributions';
import type { CurationIds } from './curatedContext';
import type { AgentRun } from './previousAttempt';
import { handOffModelDraft, type DraftedPayload } from './stageHandoff';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';

/** What every collector's full result carries (each stage's adds its own findings and curation). */
export type CollectorResultBase = Pick<DiscoveryCollectorResult, 'resultId' | 'decision' | 'consolidatedOutput'>;

/**
 * What makes one stage's collector its own: its prompt, its draft request, how it curates, and whom it hands to.
 * Everything else (ids, contributions, the previous round, the handoff with repair, the invocation record) is shared.
 */
export interface CollectorSpec<R, D, C, Result extends CollectorResultBase> extends DraftedPayload<C> {
  /** The request type recorded in history, e.g. `DiscoveryCollectorRequest`. */
  readonly inputType: string;
  /** How the agents' results are named in the recorded input (`reports`, `results`). */
  readonly inputName: string;
  /** The draft schema built for this request (its ids and agents), and its fixes. */
  draftRequest(vocabulary: CollectorVocabulary, runs: readonly AgentRun<R>[]): DraftRequest<D>;
  /** What its prompt says about the agents' results, and what it asks for. */
  brief(runs: readonly AgentRun<R>[]): CollectorBrief;
  /** The curated context for the next stage, from the accepted draft (and the agents' results it consolidated). */
  curate(draft: D, ids: CurationIds, agentResults: readonly R[]): C;
  /** The full result: the stamped draft with its curation. */
  result(stamped: CollectorRecordStamp & D, curated: C): Result;
}

/**
 * Runs a stage's collector for `round`: consolidate the agents' results, curate, and hand the curated context to the
 * next stage (validated, repaired by the model when rejected). A later round consolidates new results, so it is a
 * different request, not a repetition. `guidance` is the context manager's, when it routed this stage's context here. Returns the full result (the last accepted draft's, with its curation).
 */
export async function runCollector<R, D, C, Result extends CollectorResultBase>(
  env: StageEnvironment,
  frame: StageFrame,
  spec: CollectorSpec<R, D, C, Result>,
  runs: readonly AgentRun<R>[],
  round: number,
  previous?: Result,
  guidance?: ReconstructedContext,
): Promise<Result> {
  const { collectorType: agentType, delegation } = frame;
  const agentId = agentType;
  const inputIds = runs.map(run => run.contextId);
  const record = env.agents.begin(
    {
      agentType,
      agentId,
      action: 'consolidate',
      inputType: round === 1 ? spec.inputType : `${spec.inputType}+PreviousContext`,
      input: { round, [spec.inputName]: inputIds, previousResultId: previous?.resultId ?? null },
      upstreamContextIds: inputIds,
    },
    guidance,
  );
  try {
    const resultId = env.contextIds.issue(agentType);
    const curatedId = env.contextIds.issue(agentType);
    const chainIds = [env.rootContextId, ...frame.upstream, delegation.resultId, ...inputIds];
    const prompt = await renderMessages(
      CollectorPrompt,
      {
        goal: env.goal,
        constraints: env.constraints,
        stage: frame.stage,
        agentIds: runs.map(run => run.agentId),
        ...spec.brief(runs),
        contributions: await contributionsFor(env, agentType, resultId),
        ...(guidance === undefined ? {} : { guidance }),
        ...(previous === undefined
          ? {}
          : { previous: { attemptNumber: round - 1, serializedOutput: previous.consolidatedOutput } }),
      },
      env.model,
      env.token,
    );
    const vocabulary: CollectorVocabulary = {
      inputIds,
      agentIds: delegation.assignments.map(assignment => assignment.agentId),
    };
    // The handoff carries the curated context; the full result is kept beside it (set as the accepted draft completes).
    let result!: Result;
    await handOffModelDraft(
      env,
      { stage: frame.stage, agentId, to: PIPELINE_STAGES[PIPELINE_STAGES.indexOf(frame.stage) + 1] ?? 'report' },
      spec,
      { ...spec.draftRequest(vocabulary, runs), messages: prompt.messages },
      draft => {
        const curated = spec.curate(
          draft,
          { contextId: curatedId, sourceResultId: resultId, upstreamContextChain: chainIds },
          runs.map(run => run.result),
        );
        const stamp = { schemaVersion: SCHEMA_VERSION, upstreamContextChain: chainIds, metadata: {}, resultId };
        result = spec.result({ ...stamp, ...draft }, curated);
        return curated;
      },
    );
    record.succeeded(result, resultId);
    return result;
  } catch (error) {
    record.failed(error);
    throw error;
  }
}
