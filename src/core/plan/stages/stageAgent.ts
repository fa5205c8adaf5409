import type { ChatMessage } from '../../llm/languageModel';
import type { Contribution } from '../contributors/promptContributor';
import type { DraftRequest } from '../drafts/draftRequest';
import type { CommonPromptInputs } from '../prompts/commonSections';
import type { AgentAssignment } from '../schemas/delegation';
import { SCHEMA_VERSION } from '../schemas/version';
import type { Exploration } from '../../workspace/explorationLoop';
import { contributionsFor } from './agentContributions';
import type { Json } from './loopRecovery';
import { previousAttemptView, previousContextOf, type AgentRun, type RerunInput } from './previousAttempt';
import { handOffModelDraft, type DraftedPayload } from './stageHandoff';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import type { ReconstructedContext } from '../contextManager/routing';
import type { PayloadAudit } from './handoffAudit';

/** What the shared agent step hands a stage's prompt, beside the prompt's own props. */
export interface AgentPromptParts extends Omit<CommonPromptInputs, 'exploration'> {
  readonly contributions: Contribution[];
}

/** A stage agent's rendered request, and what it looked up first (agents that explore). */
export interface AgentPrompt {
  readonly messages: readonly ChatMessage[];
  readonly exploration?: Exploration;
}

/** What the pipeline stamps on every agent result: the version, the result's id and the delegation it answers. */
export interface AgentResultStamp {
  readonly schemaVersion: string;
  readonly resultId: string;
  readonly upstreamContextId: string;
}

/**
 * What makes one stage's agent its own: its request, its prompt, its draft, and how its result is completed.
 * Ids, contributions, the previous attempt, the handoff to the collector with repair and the record are shared.
 */
export interface AgentSpec<R, D> extends DraftedPayload {
  /** The action and request type recorded in history, e.g. `discover` / `DiscoveryAgentRequest`. */
  readonly action: string;
  readonly inputType: string;
  /** The recorded input, given the attempt number and the previous attempt's context id. */
  input(attemptNumber: number, previousContextId: string | null): Json;
  /** For agents that explore: the key their result is recorded under beside the tools they ran (`report`, `result`). */
  readonly recordedAs?: string;
  /** The draft schema built for this request, and its fixes, given what the prompt and its look-ups showed. */
  draftRequest(prompt: AgentPrompt): DraftRequest<D>;
  /** The rendered request (with the look-ups of agents that explore). */
  prompt(parts: AgentPromptParts): Promise<AgentPrompt>;
  /** The result handed to the collector, from the accepted draft and the pipeline's stamp. */
  complete(draft: D, stamp: AgentResultStamp): R;
  /** Spec 003's reference and rule checks on that result (none when it refers to nothing its model wrote). */
  readonly audit?: PayloadAudit<R>;
}

/**
 * Runs one agent of a stage: prompt (with its look-ups), draft, hand the result to the collector, record it.
 * `guidance` is the context manager's reconstructed context for an agent that looped.
 */
export async function runStageAgent<R, D>(
  env: StageEnvironment,
  frame: StageFrame,
  spec: AgentSpec<R, D>,
  assignment: AgentAssignment,
  rerun?: RerunInput<R>,
  guidance?: ReconstructedContext,
): Promise<AgentRun<R>> {
  const { agentType, delegation, routeBackFeedback } = frame;
  const previousContext = rerun === undefined ? undefined : previousContextOf(agentType, rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  return env.agents.invoke(
    {
      stage: frame.stage,
      agentType,
      agentId: assignment.agentId,
      action: spec.action,
      inputType: spec.inputType,
      input: spec.input(attemptNumber, previousContext?.previousContextId ?? null),
      upstreamContextIds: [delegation.resultId, ...frame.upstream],
    },
    async guidance => {
      const resultId = env.contextIds.issue(agentType);
      const prompt = await spec.prompt({
        goal: env.goal,
        constraints: env.constraints,
        contributions: await contributionsFor(env, agentType, resultId, previousContext),
        ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
        ...(guidance === undefined ? {} : { guidance }),
        ...(routeBackFeedback === undefined ? {} : { routeBackFeedback }),
      });
      const accepted = await handOffModelDraft(env, frame, spec, {
        source: { agentId: assignment.agentId, agentType },
        draft: { ...spec.draftRequest(prompt), messages: prompt.messages },
        complete: draft =>
          spec.complete(draft, { schemaVersion: SCHEMA_VERSION, resultId, upstreamContextId: delegation.resultId }),
        audit: spec.audit,
      });
      env.knownContextIds.add(resultId);
      const run: AgentRun<R> = {
        agentId: assignment.agentId,
        result: accepted,
        contextId: resultId,
        attempt: attemptNumber,
        finishedAt: env.clock.now(),
      };
      // Agents that explore record what they ran and what was refused beside the result.
      const { exploration } = prompt;
      const output = exploration
        ? {
            [spec.recordedAs ?? 'result']: accepted,
            toolsExecuted: exploration.executed,
            toolsRefused: exploration.refused,
          }
        : accepted;
      return { value: run, output, contextId: resultId };
    },
    guidance,
  );
}
