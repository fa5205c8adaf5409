import {
  LanguageModelFailure,
  neverCancelled,
  type CancellationSignal,
  type LanguageModel,
} from '../../../../../src/core/llm/languageModel';
import { indexWorkspace } from '../../../../../src/core/workspace/workspaceIndex';
import { InMemoryWorkspaceReader } from '../../../../support/inMemoryWorkspaceReader';
import type {
  PhaseAgents,
  PhaseDefinition,
  WorkflowDefinition,
} from '../../../../../src/core/workflow/definition/workflowDefinition';
import { markdownAgentTypes } from '../../../../../src/core/workflow/agents/markdownAgents';
import { agentTypeRegistry, type AgentType } from '../../../../../src/core/workflow/engine/agentTypes';
import { InMemoryRunOutputs } from '../../../../support/inMemoryRunOutputs';
import { runWorkflow, type WorkflowRunRequest } from '../../../../../src/core/workflow/engine/runWorkflow';
import type { WorkflowProgress } from '../../../../../src/core/workflow/engine/workflowProgress';
import type { WorkflowRunState } from '../../../../../src/core/workflow/engine/workflowRunState';
import { ScriptedModel } from '../../../../support/scriptedModel';
import { steppingClock } from '../../../../support/pipelineScript';

export const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';
export const FOLDER = `.council/runs/${RUN_ID}`;

/** A phase with defaults for what a test does not care about. */
export function phase(id: string, agents: PhaseAgents, extra: Partial<PhaseDefinition> = {}): PhaseDefinition {
  return {
    id,
    name: id[0]?.toUpperCase() + id.slice(1),
    description: `The ${id} phase.`,
    agents,
    skills: [],
    ...extra,
  };
}

export function strict(...types: string[]): PhaseAgents {
  return { mode: 'strict', behavior: 'parallel', subagents: types.map(type => ({ type, config: {} })) };
}

export function workflow(
  phases: readonly PhaseDefinition[],
  extra: Partial<WorkflowDefinition> = {},
): WorkflowDefinition {
  return {
    name: 'review',
    description: 'A test workflow.',
    executionMode: 'strict',
    phases,
    source: { kind: 'workspace', path: '.council/workflows/review.yaml' },
    ...extra,
  };
}

/** A model whose every reply is a short Markdown document naming the call. */
export function echoModel(): ScriptedModel {
  return new ScriptedModel((_request, index) => `# Report ${index + 1}\n\nFindings of call ${index + 1}.`, {
    supportsToolCalling: false,
  });
}

/** A model whose every request fails as an unavailable model does (a run on it stops, resumable). */
export function downModel(): ScriptedModel {
  return new ScriptedModel(() => ({ kind: 'error', error: new LanguageModelFailure('notFound', 'model down') }), {
    supportsToolCalling: false,
  });
}

export interface Run {
  readonly outputs: InMemoryRunOutputs;
  readonly saves: WorkflowRunState[];
  readonly events: WorkflowProgress[];
}

/** Runs a workflow over a small in-memory workspace; returns the outcome and what the test inspects. */
export async function run(
  definition: WorkflowDefinition,
  overrides: Partial<WorkflowRunRequest> & {
    readonly model?: LanguageModel;
    readonly extraTypes?: readonly AgentType[];
    readonly outputs?: InMemoryRunOutputs;
  } = {},
  token: CancellationSignal = neverCancelled,
) {
  const outputs = overrides.outputs ?? new InMemoryRunOutputs(FOLDER);
  const saves: WorkflowRunState[] = [];
  const events: WorkflowProgress[] = [];
  const { extraTypes = [], ...rest } = overrides;
  const reader = new InMemoryWorkspaceReader({
    'src/app.ts': 'export const app = 1;\n',
    'docs/template.md':
      '# {{workflow_name}}\n\nGoal: {{goal}}\n\n{{deliverables}}\n\n{{include:scan/reviewer.md}}\n\nFeedback:\n{{feedback}}\n',
  });
  const outcome = await runWorkflow({
    workflow: definition,
    agents: agentTypeRegistry([...markdownAgentTypes(() => indexWorkspace(reader)), ...extraTypes]),
    model: echoModel(),
    reader,
    outputs,
    clock: steppingClock(),
    token,
    onSave: async state => void saves.push(state),
    onProgress: event => events.push(event),
    ...(rest.resume ? {} : { start: { runId: RUN_ID, goal: 'Review the app module.' } }),
    ...rest,
  });
  return { outcome, outputs, saves, events };
}
