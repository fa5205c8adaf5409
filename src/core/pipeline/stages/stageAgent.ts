import type { z } from 'zod';
import type { ChatMessage } from '../../llm/languageModel';
import type { ReconstructedContext } from '../contextManager/routing';
import type { Contribution } from '../contributors/promptContributor';
import type { DraftRequest } from '../drafts/draftRequest';
import type { HandoffParty } from '../handoff/envelope';
import type { PreviousAttemptView } from '../prompts/commonSections';
import type { PipelineStage } from '../schemas/agentType';
import type { AgentAssignment } from '../schemas/delegation';
import type { Exploration } from '../workspace/explorationLoop';
import { contributionsFor } from './agentContributions';
import { invokeAgent, type Json } from './agentInvocation';
import {
  previousAttemptView,
  previousContextOf,
  type AgentRun,
  type RerunInput,
  type RerunnableAgent,
} from './previousAttempt';
import type { ChainPosition } from './stageCollector';
import { handOffModelDraft } from './stageHandoff';
import type { StageEnvironment } from './stageEnvironment';

/** What the shared agent step hands a stage's prompt, beside the stage's own props. */
export interface AgentPromptParts {
  readonly contributions: Contribution[];
  readonly previous?: PreviousAttemptView;
  readonly guidance?: ReconstructedContext;
}

/** A stage agent's rendered request, and what it looked up first (agents that explore). */
export interface AgentPrompt {
  readonly messages: readonly ChatMessage[];
  readonly exploration?: Exploration;
}

/**
 * What makes one stage's agent its own: its prompt, its draft request, how its result is completed, and whom it
 * hands to. Ids, contributions, the previous attempt, the handoff with repair and the record are shared.
 */
export interface AgentSpec<R, D> {
  readonly stage: PipelineStage;
  readonly agentType: RerunnableAgent;
  /** The action and request type recorded in history, e.g. `discover` / `DiscoveryAgentRequest`. */
  readonly action: string;
  readonly inputType: string;
  /** The recorded input, given the attempt number and the previous attempt's context id. */
  input(attemptNumber: number, previousContextId: string | null): Json;
  /** For agents that explore: the key their result is recorded under beside the tools they ran (`report`, `result`). */
  readonly recordedAs?: string;
  readonly upstreamContextIds: readonly string[];
  readonly collector: HandoffParty;
  readonly payloadName: string;
  readonly schema: z.ZodType<R>;
  readonly knownTickets?: ReadonlySet<string>;
  readonly name: string;
  readonly description: string;
  readonly draftRequest: DraftRequest<D>;
  prompt(parts: AgentPromptParts, meter: Parameters<Parameters<typeof invokeAgent>[2]>[0]): Promise<AgentPrompt>;
  /** The result handed to the collector, from the accepted draft. */
  complete(draft: D, resultId: string): R;
}

/** Runs one agent of a stage: prompt (with its look-ups), draft, hand the result to the collector, record it. */
export async function runStageAgent<R, D>(
  env: StageEnvironment,
  spec: AgentSpec<R, D>,
  assignment: AgentAssignment,
  chain: ChainPosition,
  rerun?: RerunInput<R>,
): Promise<AgentRun<R>> {
  const previousContext = rerun === undefined ? undefined : previousContextOf(spec.agentType, rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  return invokeAgent(
    env,
    {
      stage: spec.stage,
      agentType: spec.agentType,
      agentId: assignment.agentId,
      action: spec.action,
      inputType: spec.inputType,
      input: spec.input(attemptNumber, previousContext?.previousContextId ?? null),
      upstreamContextIds: [...spec.upstreamContextIds],
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue(spec.agentType);
      const { messages, exploration } = await spec.prompt(
        {
          contributions: await contributionsFor(env, spec.agentType, resultId, previousContext),
          ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
          ...(guidance === undefined ? {} : { guidance }),
        },
        meter,
      );
      const accepted = await handOffModelDraft(env, {
        source: { agentId: assignment.agentId, agentType: spec.agentType },
        target: spec.collector,
        payloadName: spec.payloadName,
        schema: spec.schema,
        chain,
        stage: spec.stage,
        ...(spec.knownTickets ? { knownTickets: spec.knownTickets } : {}),
        draft: { ...spec.draftRequest, name: spec.name, description: spec.description, messages, meter },
        complete: draft => spec.complete(draft, resultId),
      });
      env.knownContextIds.add(resultId);
      const run: AgentRun<R> = {
        agentId: assignment.agentId,
        result: accepted.payload,
        contextId: resultId,
        handoffId: accepted.handoffId,
        attempt: attemptNumber,
        finishedAt: env.clock.now(),
      };
      // Agents that explore record what they ran and what was refused beside the result.
      const output = exploration
        ? {
            [spec.recordedAs ?? 'result']: accepted.payload,
            toolsExecuted: exploration.executed,
            toolsRefused: exploration.refused,
          }
        : accepted.payload;
      return { value: run, output, contextId: resultId };
    },
  );
}
