import { PromptElement } from '@vscode/prompt-tsx';
import { PIPELINE_STAGES, type PipelineStage } from '../schemas/agentType';
import { AgentPrompt, type PipelinePromptProps } from './agentPrompt';
import type { AgentPromptSection } from './commonSections';

/** An agent's result, by the agent that wrote it. */
export interface AgentOutput<R> {
  readonly agentId: string;
  readonly result: R;
}

/** What makes one collector's prompt its own. */
export interface CollectorBrief {
  /** How the collector is introduced: "You are the {name} collector …". */
  readonly name: string;
  /** What to do with the results, between the introduction and how to decide. */
  readonly task: readonly string[];
  /** One section per agent result, in the agents' order (earlier ones are pruned last). */
  readonly inputs: readonly Omit<AgentPromptSection, 'priority'>[];
  /** Sections after the results, e.g. the upstream context. */
  readonly context?: readonly AgentPromptSection[];
}

interface CollectorPromptProps extends PipelinePromptProps, CollectorBrief {
  readonly stage: PipelineStage;
  /** The agents whose results these are: the ones a rerun may name. */
  readonly agentIds: readonly string[];
}

/**
 * Every collector's prompt: who it is, its task and how it decides (naming the agents it may rerun), then the common
 * sections and one section per agent result.
 */
export class CollectorPrompt extends PromptElement<CollectorPromptProps> {
  override render() {
    const { stage, agentIds, name, task, inputs, context = [] } = this.props;
    const instructions = [
      `You are the ${name} collector of a pipeline (discovery -> planning -> tickets).`,
      ...task,
      ...decisionInstructions(stage, agentIds),
    ];
    const sections = [...inputs.map((input, index) => ({ ...input, priority: 1500 - index })), ...context];
    return <AgentPrompt {...this.props} instructions={instructions} sections={sections} />;
  }
}

/** How a collector chooses its decision; the agent ids are the ones a rerun may name. */
function decisionInstructions(stage: PipelineStage, agentIds: readonly string[]): string[] {
  const earlier = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(stage));
  return [
    'Then decide what happens next:',
    '- "advance" when the results are good enough for the next stage;',
    `- "rerun" with the agentIds to redo (from: ${agentIds.join(', ')}) when some results are missing or wrong — your rationale is sent to them as feedback;`,
    earlier.length > 0
      ? `- "route_back" to an earlier stage (${earlier.join(', ')}) only when its output is missing something this stage cannot work around.`
      : '- "route_back" is not possible from the first stage.',
    ...(stage === PIPELINE_STAGES[PIPELINE_STAGES.length - 1]
      ? []
      : [
          '- "proceed" instead of "advance" when the next stage needs more than your consolidation: a context manager rebuilds it from the run\'s history (a request more).',
        ]),
  ];
}
