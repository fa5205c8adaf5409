import type { z } from 'zod';
import { closestMatch } from '../../closestMatch';
import { CURRENT_PHASE, type ExecutionMode } from './workflowDefinition';
import { PhaseSchema, type PhaseFile, type SubagentFile, type WorkflowFile } from './workflowSchema';
import { code, list, type Path } from '../../zodIssues';
import type { Issues } from './workflowIssues';

// The rules between fields: what zod cannot say about one field alone.

/**
 * A phase's fields that are well-formed on their own (the others, already reported by zod, are left out), and the
 * keys the file wrote: a rule about a missing field does not fire when the field is there but malformed.
 */
export type LenientPhase = { readonly [K in keyof PhaseFile]?: PhaseFile[K] } & {
  readonly written: ReadonlySet<string>;
};

export function lenientPhase(raw: unknown): LenientPhase | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const fields: Record<string, unknown> = {};
  const written = new Set(Object.keys(raw));
  for (const [key, schema] of Object.entries(PhaseSchema.shape)) {
    if (!written.has(key)) continue;
    const parsed = (schema as z.ZodType).safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success && parsed.data !== undefined) fields[key] = parsed.data;
  }
  return { ...(fields as Partial<PhaseFile>), written };
}

export interface RuleContext {
  readonly issues: Issues;
  /** Phase ids by index (undefined where a phase has no usable id). */
  readonly ids: readonly (string | undefined)[];
  readonly knownTypes: ReadonlySet<string> | undefined;
}

function checkTypes(ctx: RuleContext, specs: readonly SubagentFile[] | undefined, path: Path): void {
  if (!ctx.knownTypes || !specs) return;
  const known = [...ctx.knownTypes].sort();
  specs.forEach((spec, index) => {
    if (ctx.knownTypes?.has(spec.type)) return;
    const near = closestMatch(spec.type, known);
    ctx.issues.add(
      [...path, index, 'type'],
      `Unknown subagent type ${code(spec.type)}; known types: ${known.join(', ')}${near ? ` (did you mean ${code(near)}?)` : ''}.`,
    );
  });
}

/** A phase's agents against its execution mode and behavior. */
export function checkModeAndBehavior(ctx: RuleContext, phase: LenientPhase, at: Path, mode: ExecutionMode): void {
  const { issues } = ctx;
  const { behavior, subagents } = phase;
  if (behavior === undefined) return;
  // A field that is written but malformed is already reported: it counts as there (no "missing" issue).
  const script = phase.written.has('main_agent') ? (phase.main_agent?.script ?? '') : undefined;
  if (phase.written.has('subagents') && subagents === undefined) {
    if (mode === 'loose')
      issues.add(
        [...at, 'subagents'],
        'A loose phase spawns no subagents: move them to `suggested_subagents` (informational), or make the phase strict or adaptive.',
      );
    if (mode !== 'loose' && behavior === 'main-only')
      issues.add(
        [...at, 'subagents'],
        'A main-only phase spawns no subagents: remove `subagents`, or set `behavior: parallel` or `sequential`.',
      );
    return;
  }
  const isList = Array.isArray(subagents);
  const from =
    phase.execution_mode === undefined
      ? ' (the phase takes its mode from the workflow’s `execution_mode`; give it its own `execution_mode` to change that)'
      : '';

  if (mode !== 'loose' && phase.suggested_subagents !== undefined) {
    issues.add(
      [...at, 'suggested_subagents'],
      `\`suggested_subagents\` is informational and only for loose phases; this phase is ${mode}${from}: list the subagents to spawn under \`subagents\`, or remove \`suggested_subagents\`.`,
    );
  }

  if (mode === 'loose') {
    if (behavior !== 'main-only')
      issues.add(
        [...at, 'behavior'],
        `A loose phase runs only its main agent: set \`behavior: main-only\` (found ${code(behavior)})${from}.`,
      );
    if (script === undefined) {
      issues.add(
        [...at, 'main_agent'],
        "A loose phase needs `main_agent.script`: the JavaScript that does the phase’s work (e.g. `const notes = await thinkHard(…); await writeFile('notes.md', notes);`).",
      );
    }
    if (subagents !== undefined) {
      issues.add(
        [...at, 'subagents'],
        `A loose phase spawns no subagents: move them to \`suggested_subagents\` (informational), or make the phase strict or adaptive${from}.`,
      );
    }
    return;
  }

  if (mode === 'strict') {
    if (behavior === 'main-only') {
      if (script === undefined)
        issues.add(
          [...at, 'main_agent'],
          'A strict main-only phase runs its main agent: add `main_agent.script`, or use `behavior: parallel` or `sequential` with `subagents`.',
        );
      if (subagents !== undefined)
        issues.add(
          [...at, 'subagents'],
          'A main-only phase spawns no subagents: remove `subagents`, or set `behavior: parallel` or `sequential`.',
        );
      return;
    }
    if (subagents !== undefined && !isList) {
      issues.add(
        [...at, 'subagents'],
        `A strict phase lists its subagents directly (\`- type: code-scout\`); \`always\` / \`adaptive\` are for adaptive phases${from}: list the subagents, or set \`execution_mode: adaptive\`.`,
      );
    } else if (!isList || subagents.length === 0) {
      issues.add(
        [...at, 'subagents'],
        `A strict ${behavior} phase needs \`subagents\`: a non-empty list of \`- type: …\` entries (or use \`behavior: main-only\` with a \`main_agent.script\`).`,
      );
    } else {
      checkTypes(ctx, subagents, [...at, 'subagents']);
    }
    return;
  }

  // adaptive
  if (behavior === 'main-only') {
    issues.add(
      [...at, 'behavior'],
      `An adaptive phase spawns subagents: set \`behavior: parallel\` or \`sequential\` (found \`main-only\`)${from}; for a phase that only runs a script use \`execution_mode: strict\` or \`loose\`.`,
    );
  }
  if (isList) {
    issues.add(
      [...at, 'subagents'],
      `An adaptive phase groups its subagents: put the list under \`always:\` (and optionally an \`adaptive.script\` that returns more), or set \`execution_mode: strict\`${from}.`,
    );
    return;
  }
  const always = subagents?.always ?? [];
  if (always.length === 0 && subagents?.adaptive === undefined) {
    issues.add(
      [...at, 'subagents'],
      `An adaptive phase needs \`subagents.always\` (a non-empty list), \`subagents.adaptive.script\` (returning the subagents to spawn), or both${from}.`,
    );
  }
  checkTypes(ctx, subagents?.always, [...at, 'subagents', 'always']);
}

export function checkCheckpoint(ctx: RuleContext, phase: LenientPhase, index: number, at: Path): void {
  const checkpoint = phase.checkpoint;
  if (!checkpoint || !('options' in checkpoint)) return;
  const known = [...new Set(ctx.ids.filter((id): id is string => id !== undefined))];
  const unknown = (id: string): string => {
    const near = closestMatch(id, known);
    return `there is no phase ${code(id)}${near ? ` (did you mean ${code(near)}?)` : ''}; the phases are ${list(known)}`;
  };
  checkpoint.options.forEach((option, optionIndex) => {
    const where: Path = [...at, 'checkpoint', 'options', optionIndex, 'on_select'];
    const { action, target, phases } = option.on_select;
    if (target !== undefined && action !== 'repeat_phase') {
      ctx.issues.add(
        [...where, 'target'],
        `\`target\` is for \`repeat_phase\`; this option's action is ${code(action)}: remove \`target\`, or set \`action: repeat_phase\`.`,
      );
    }
    if (phases !== undefined && action !== 'skip_phases') {
      ctx.issues.add(
        [...where, 'phases'],
        `\`phases\` is for \`skip_phases\`; this option's action is ${code(action)}: remove \`phases\`, or set \`action: skip_phases\`.`,
      );
    }
    if (action === 'repeat_phase' && target !== undefined && target !== CURRENT_PHASE) {
      const targetIndex = ctx.ids.indexOf(target);
      if (targetIndex < 0) {
        ctx.issues.add(
          [...where, 'target'],
          `\`repeat_phase\` target: ${unknown(target)}. Use one of them, or \`current\` for this phase.`,
        );
      } else if (targetIndex > index) {
        ctx.issues.add(
          [...where, 'target'],
          `\`repeat_phase\` goes back to this phase or an earlier one; ${code(target)} comes later. Use \`current\` or an earlier phase, or \`skip_phases\` to jump ahead.`,
        );
      }
    }
    if (action === 'skip_phases') {
      if (phases === undefined) {
        ctx.issues.add(
          [...where, 'phases'],
          'Missing `phases`: list the later phases `skip_phases` skips (e.g. `phases: [tests]`).',
        );
        return;
      }
      phases.forEach((id, idIndex) => {
        const phaseIndex = id === CURRENT_PHASE ? index : ctx.ids.indexOf(id);
        if (phaseIndex < 0) {
          ctx.issues.add([...where, 'phases', idIndex], `\`skip_phases\`: ${unknown(id)}.`);
        } else if (phaseIndex <= index) {
          const what = phaseIndex === index ? 'is this phase itself' : 'comes before this phase';
          ctx.issues.add(
            [...where, 'phases', idIndex],
            `\`skip_phases\` skips phases that have not run yet; ${code(id)} ${what}. Name a later phase, or use \`repeat_phase\` to go back.`,
          );
        }
      });
    }
  });
}

export function checkGapCheck(ctx: RuleContext, phase: LenientPhase, at: Path): void {
  const gap = phase.gap_check;
  if (!gap || !gap.enabled) return;
  const where: Path = [...at, 'gap_check'];
  const hasScript = gap.script !== undefined;
  const hasCriteria = gap.criteria !== undefined;
  if (hasScript && hasCriteria) {
    ctx.issues.add(
      where,
      'A gap check has either a `script` or `criteria`, not both: keep one (a script returns its own verdict; criteria use `on_failure`).',
    );
  } else if (!hasScript && !hasCriteria) {
    ctx.issues.add(
      where,
      'A gap check needs a `script` (returning `{ status, gaps, action }`) or `criteria` (a list of `name` / `check`): add one, or set `enabled: false`.',
    );
  }
  const onFailure = gap.on_failure;
  if (!onFailure) return;
  if (hasScript && !hasCriteria) {
    ctx.issues.add(
      [...where, 'on_failure'],
      '`on_failure` applies to `criteria`; a gap-check script returns its own `action`: remove `on_failure`, or use `criteria`.',
    );
    return;
  }
  const failureAt: Path = [...where, 'on_failure'];
  if (onFailure.additional_agents !== undefined && onFailure.additionalAgents !== undefined) {
    ctx.issues.add(
      [...failureAt, 'additionalAgents'],
      'Give the additional agents once: `additional_agents` or `additionalAgents`, not both.',
    );
  }
  const key = onFailure.additional_agents !== undefined ? 'additional_agents' : 'additionalAgents';
  const agents = onFailure.additional_agents ?? onFailure.additionalAgents;
  if (onFailure.action === 'spawn_additional') {
    if (!agents || agents.length === 0) {
      ctx.issues.add(
        [...failureAt, 'additional_agents'],
        '`spawn_additional` spawns `additional_agents`: list them (e.g. `- type: code-scout`), or choose another action.',
      );
    }
  } else if (agents !== undefined) {
    ctx.issues.add(
      [...failureAt, key],
      `Only \`spawn_additional\` spawns \`${key}\`; the action is ${code(onFailure.action)}: remove \`${key}\`, or set \`action: spawn_additional\`.`,
    );
  }
  checkTypes(ctx, agents, [...failureAt, key]);
}

/** Why a configured output path would leave the run's folder, or undefined when it stays inside. */
function leavesRunFolder(path: string): string | undefined {
  const inner = path.trim().replace(/^\{\{\s*output_dir\s*\}\}\/?/, '');
  if (inner.includes('\\')) return 'backslashes are not allowed';
  if (inner.startsWith('/') || /^[a-zA-Z]:/.test(inner)) return 'it is an absolute path';
  if (inner.split('/').includes('..')) return 'it leaves the run folder';
  return undefined;
}

/** Every `output_path` and the finalization's `output` stay in the run's folder: checked now, not after spending. */
export function checkOutputPaths(issues: Issues, file: WorkflowFile): void {
  const visit = (value: unknown, path: Path): void => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else if (value !== null && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        if (key === 'output_path' && typeof child === 'string') check(child, [...path, key]);
        else if (key === 'show_files' && Array.isArray(child))
          child.forEach((shown, index) => {
            if (typeof shown === 'string') checkShown(shown, [...path, key, index]);
          });
        else visit(child, [...path, key]);
      }
  };
  const check = (written: string, at: Path): void => {
    const why = leavesRunFolder(written);
    if (why)
      issues.add(
        at,
        `${code(written)} cannot be written: ${why}. A run writes only under its own folder (\`{{output_dir}}\`): use a relative path such as \`scan/map.md\` or \`{{output_dir}}/scan/map.md\`.`,
      );
  };
  // A checkpoint links its files in the chat: a link may point into the workspace, never out of it.
  const checkShown = (shown: string, at: Path): void => {
    if (leavesRunFolder(shown.replace(/\\/g, '/')))
      issues.add(
        at,
        `${code(shown)} cannot be shown: it points outside the workspace. Show a file of the workspace or of the run, e.g. \`docs/notes.md\` or \`{{output_dir}}/plan.md\`.`,
      );
  };
  visit(file.phases, ['phases']);
  if (file.finalization) check(file.finalization.output, ['finalization', 'output']);
}

/** A skill names an agent type or a read-only tool that exists here (with a suggestion when it is a near miss). */
export function checkSkills(ctx: RuleContext, file: WorkflowFile, knownTools: ReadonlySet<string> | undefined): void {
  if (!ctx.knownTypes || !knownTools) return;
  const known = [...new Set([...ctx.knownTypes, ...knownTools])].sort();
  file.phases.forEach((phase, index) =>
    phase.skills?.forEach((skill, at) => {
      if (known.includes(skill.name)) return;
      const near = closestMatch(skill.name, known);
      ctx.issues.add(
        ['phases', index, 'skills', at, 'name'],
        `Unknown skill ${code(skill.name)}: a skill is an agent type or a read-only tool (known here: ${known.join(', ')})${near ? `; did you mean ${code(near)}?` : '.'}`,
      );
    }),
  );
}
