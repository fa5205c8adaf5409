import { ActionableError } from '../../actionableError';
import type { CancellationSignal } from '../../llm/languageModel';
import type { PhaseDefinition, SubagentSpec } from '../definition/workflowDefinition';
import type { AgentResult, AgentTypeRegistry } from './agentTypes';
import { fillTemplate } from './templating';
import type { WorkflowProgress } from './workflowProgress';

/** The read-only language-model tools a skill may name (VS Code's `vscode.lm.tools`, filtered). */
export interface ReadOnlyTools {
  names(): readonly string[];
  /** Runs the tool with `{ args }` and returns its text result. */
  invoke(name: string, args: readonly string[], token: CancellationSignal): Promise<string>;
}

/** What running a phase's skills needs from the engine. */
export interface SkillEnvironment {
  readonly agents: AgentTypeRegistry;
  readonly tools: ReadOnlyTools | undefined;
  readonly values: Readonly<Record<string, string>>;
  readonly condition: (skill: string, condition: string) => Promise<boolean>;
  readonly spawn: (specs: readonly SubagentSpec[]) => Promise<AgentResult[]>;
  readonly record: (path: string, content: string) => Promise<string>;
  readonly token: CancellationSignal;
  readonly onProgress: (event: WorkflowProgress) => void;
}

/**
 * Runs a phase's skills in order (spec 002 "Skills Schema"): a skill names a registered agent type (spawned with
 * `config.args`) or a read-only language-model tool (its result saved as `skills/<name>.md`); `condition` decides
 * whether it runs; `args` are templated (`{{output_dir}}`, `{{phase_id}}`, …).
 */
export async function runSkills(phase: PhaseDefinition, env: SkillEnvironment): Promise<void> {
  for (const skill of phase.skills) {
    const ran = skill.condition === undefined || (await env.condition(skill.name, skill.condition));
    env.onProgress({ kind: 'skill', phase: phase.id, name: skill.name, ran });
    if (!ran) continue;
    const args = skill.args.map(arg => fillTemplate(arg, env.values));
    if (env.agents.has(skill.name)) {
      await env.spawn([{ type: skill.name, config: { args } }]);
    } else if (env.tools?.names().includes(skill.name)) {
      const text = await env.tools.invoke(skill.name, args, env.token);
      await env.record(`skills/${skill.name}.md`, text);
    } else {
      const known = [...env.agents.keys(), ...(env.tools?.names() ?? [])].sort();
      throw new ActionableError(
        `Phase \`${phase.id}\` invokes the skill \`${skill.name}\`, which is neither an agent type nor a read-only tool here. Known skills: ${known.join(', ') || 'none'}.`,
      );
    }
  }
}
