import {
  CURRENT_PHASE,
  type CheckpointAction,
  type CheckpointDefinition,
  type ExecutionMode,
  type GapCheckDefinition,
  type PhaseAgents,
  type PhaseDefinition,
  type SubagentSpec,
} from './workflowDefinition';
import type { PhaseFile, SubagentFile } from './workflowSchema';

// A checked phase as the engine runs it: the file's spellings normalized into a PhaseDefinition.

function spec(subagent: SubagentFile): SubagentSpec {
  return { type: subagent.type, config: { ...(subagent.config ?? {}) } };
}

function agentsOf(phase: PhaseFile, mode: ExecutionMode): PhaseAgents {
  const { behavior, subagents } = phase;
  const script = phase.main_agent?.script ?? '';
  if (mode === 'loose') {
    const suggested = (phase.suggested_subagents ?? []).map(item => (typeof item === 'string' ? item : item.type));
    return { mode, behavior: 'main-only', mainScript: script, suggestedSubagents: suggested };
  }
  if (mode === 'strict') {
    if (behavior === 'main-only') return { mode, behavior, mainScript: script };
    return { mode, behavior, subagents: (Array.isArray(subagents) ? subagents : []).map(spec) };
  }
  const adaptive = Array.isArray(subagents) ? undefined : subagents;
  return {
    mode,
    behavior: behavior === 'main-only' ? 'parallel' : behavior,
    always: (adaptive?.always ?? []).map(spec),
    ...(adaptive?.adaptive ? { adaptiveScript: adaptive.adaptive.script } : {}),
  };
}

function checkpointOf(phase: PhaseFile): CheckpointDefinition | undefined {
  const checkpoint = phase.checkpoint;
  if (!checkpoint) return undefined;
  if (!('options' in checkpoint)) return { kind: 'approval' };
  return {
    kind: 'custom',
    ...(checkpoint.condition !== undefined ? { condition: checkpoint.condition } : {}),
    prompt: checkpoint.prompt,
    showFiles: checkpoint.show_files ?? [],
    options: checkpoint.options.map(option => {
      const { action, target, phases } = option.on_select;
      const onSelect: CheckpointAction =
        action === 'repeat_phase'
          ? { action, target: target === undefined || target === CURRENT_PHASE ? phase.id : target }
          : action === 'skip_phases'
            ? { action, phases: (phases ?? []).map(id => (id === CURRENT_PHASE ? phase.id : id)) }
            : { action };
      return { label: option.label, withFeedback: option.with_feedback, onSelect };
    }),
  };
}

function gapCheckOf(phase: PhaseFile): GapCheckDefinition | undefined {
  const gap = phase.gap_check;
  if (!gap || !gap.enabled) return undefined;
  if (gap.script !== undefined) return { kind: 'script', maxIterations: gap.max_iterations, script: gap.script };
  const onFailure = gap.on_failure;
  return {
    kind: 'criteria',
    maxIterations: gap.max_iterations,
    criteria: (gap.criteria ?? []).map(({ name, check }) => ({ name, check })),
    onFailure: {
      // Criteria without `on_failure` ask the user: the safe choice when nobody said what to do.
      action: onFailure?.action ?? 'escalate',
      ...(onFailure?.message !== undefined ? { message: onFailure.message } : {}),
      additionalAgents: (onFailure?.additional_agents ?? onFailure?.additionalAgents ?? []).map(spec),
    },
  };
}

export function phaseOf(phase: PhaseFile, mode: ExecutionMode, line: number | undefined): PhaseDefinition {
  const agents = agentsOf(phase, mode);
  const checkpoint = checkpointOf(phase);
  const gapCheck = gapCheckOf(phase);
  return {
    id: phase.id,
    name: phase.name ?? phase.id,
    description: phase.description ?? '',
    agents,
    // A main-only phase's script is its agents' `mainScript`; elsewhere the main agent runs after the subagents.
    ...(agents.behavior !== 'main-only' && phase.main_agent ? { mainScript: phase.main_agent.script } : {}),
    ...(checkpoint ? { checkpoint } : {}),
    ...(gapCheck ? { gapCheck } : {}),
    skills: (phase.skills ?? []).map(skill => ({
      name: skill.name,
      ...(skill.condition !== undefined ? { condition: skill.condition } : {}),
      args: skill.args ?? [],
    })),
    ...(line !== undefined ? { line } : {}),
  };
}
