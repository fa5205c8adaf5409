import type { ChatMessage } from '../../llm/languageModel';
import { DEFAULT_WORKSPACE_TOOL_LIMITS } from '../../workspace/workspaceTools';
import type { Contribution } from '../contributors/promptContributor';
import type { DraftRequest } from '../drafts/draftRequest';
import type { CommonPromptInputs } from '../prompts/commonSections';
import type { AgentAssignment } from '../schemas/delegation';
import type { AgentRecordStamp } from '../schemas/recordStamp';
import { SCHEMA_VERSION } from '../schemas/version';
import {
  exploreWorkspace,
  transcriptText,
  type Exploration,
  type ExplorationLimits,
} from '../../workspace/explorationLoop';
import { contributionsFor } from './agentContributions';
import { TOOL_GUIDANCE } from '../contributors/toolGuidance';
import type { InvocationSpec } from './loopRecovery';
import { previousAttemptView, previousContextOf, type AgentRun, type RerunInput } from './previousAttempt';
import { handOffModelDraft, type DraftedPayload } from './stageHandoff';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import type { ReconstructedContext } from '../contextManager/routing';
import { withContextRequest, type ContextManagerRoutingRequest } from '../contextManager/contextManagerRequest';

/**
 * What the shared agent step hands a stage's prompt, beside the prompt's own props: the common inputs (with the
 * exploration's transcript in the report's request) and, for an agent that explores, which request it is.
 */
interface AgentPromptInputs extends CommonPromptInputs {
  readonly contributions: Contribution[];
  /** True for the report, after exploring (always, for an agent that does not explore). */
  readonly reporting: boolean;
}

/**
 * What makes one stage's agent its own: its request, its prompt, its draft, and how its result is completed.
 * Ids, contributions, the previous attempt, the handoff to the collector with repair and the record are shared.
 */
export interface AgentSpec<R, D> extends DraftedPayload<R> {
  /** The action and request type recorded in history, e.g. `discover` / `DiscoveryAgentRequest`. */
  readonly action: string;
  readonly inputType: string;
  /** The recorded input, given the attempt number and the previous attempt's context id. */
  input(attemptNumber: number, previousContextId: string | null): InvocationSpec['input'];
  /** For agents that explore: the key their result is recorded under beside the tools they ran (default `result`). */
  readonly recordedAs?: string;
  /** The draft schema built for this request, and its fixes, given what its look-ups showed (agents that explore). */
  draftRequest(exploration?: Exploration): DraftRequest<D>;
  /**
   * An agent that explores first: its prompt opens a bounded read-only tool loop over the workspace, then the same
   * prompt, with the exploration's transcript, asks for its report.
   */
  readonly explores?: ExplorationLimits;
  prompt(inputs: AgentPromptInputs): Promise<{ readonly messages: readonly ChatMessage[] }>;
  /** The result handed to the collector, from the accepted draft and the pipeline's stamp. */
  complete(draft: D, stamp: AgentRecordStamp): R;
}

/**
 * Runs one agent of a stage: prompt (with its look-ups), draft, hand the result to the collector, record it; its
 * progress says when it starts and how it ended.
 * `guidance` is the context manager's reconstructed context (a loop, the agent's own request, another stage's). Its
 * reply may ask for reconstruction itself (`contextRequest`), returned beside the result for the stage to act on.
 */
export async function runStageAgent<R, D>(
  env: StageEnvironment,
  frame: StageFrame,
  spec: AgentSpec<R, D>,
  assignment: AgentAssignment,
  rerun?: RerunInput<R>,
  guidance?: ReconstructedContext,
): Promise<AgentRun<R>> {
  const { agentType, delegation } = frame;
  const previousContext = rerun === undefined ? undefined : previousContextOf(agentType, rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  const { agentId } = assignment;
  // Recorded on the run's history however it ends; its progress lines bracket it (a looping agent's rerun gets its own).
  const record = env.agents.begin(
    {
      agentType,
      agentId,
      action: spec.action,
      inputType: spec.inputType,
      input: spec.input(attemptNumber, previousContext?.previousContextId ?? null),
      upstreamContextIds: [delegation.resultId, ...frame.upstream],
    },
    guidance,
  );
  env.onProgress({ kind: 'agent-started', stage: frame.stage, agentId, attempt: attemptNumber });
  let ok = false;
  try {
    const resultId = env.contextIds.issue(agentType);
    const parts = {
      goal: env.goal,
      constraints: env.constraints,
      contributions: await contributionsFor(env, agentType, resultId, previousContext),
      ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
      ...(guidance === undefined ? {} : { guidance }),
      ...(env.feedback === undefined ? {} : { feedback: env.feedback }),
    };
    const limits = spec.explores;
    const exploration =
      limits &&
      (await exploreWorkspace(
        env.model,
        (await spec.prompt({ ...parts, reporting: false })).messages,
        { reader: env.reader, index: env.index, limits: DEFAULT_WORKSPACE_TOOL_LIMITS },
        limits,
        env.token,
      ));
    const { messages } = await spec.prompt({
      ...parts,
      reporting: true,
      ...(exploration
        ? {
            exploration: transcriptText(exploration, limits.maxTranscriptChars),
            // The report's request offers no workspace tools: guidance on them would only be billed.
            contributions: parts.contributions.filter(contribution => contribution.name !== TOOL_GUIDANCE),
          }
        : {}),
    });
    // The reply may ask for reconstruction (`contextRequest`); the request is kept beside the result, never in it.
    let contextRequest: ContextManagerRoutingRequest | undefined;
    const accepted = await handOffModelDraft(
      env,
      { stage: frame.stage, agentId, to: frame.stage },
      spec,
      { ...withContextRequest(spec.draftRequest(exploration)), messages },
      ({ contextRequest: asked, ...draft }) => {
        contextRequest = asked;
        return spec.complete(draft as D, {
          schemaVersion: SCHEMA_VERSION,
          resultId,
          upstreamContextId: delegation.resultId,
        });
      },
    );
    // Agents that explore record what they ran and what was refused beside the result.
    record.succeeded(
      exploration
        ? {
            [spec.recordedAs ?? 'result']: accepted,
            toolsExecuted: exploration.executed,
            toolsRefused: exploration.refused,
          }
        : accepted,
      resultId,
    );
    ok = true;
    return {
      agentId,
      result: accepted,
      contextId: resultId,
      attempt: attemptNumber,
      finishedAt: env.clock.now(),
      ...(contextRequest === undefined ? {} : { contextRequest }),
    };
  } catch (error) {
    record.failed(error);
    throw error;
  } finally {
    env.onProgress({ kind: 'agent-finished', stage: frame.stage, agentId, ok });
  }
}
