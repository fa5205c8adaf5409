/**
 * Reads a workflow file (spec 002): YAML syntax, then the structure (`workflowSchema.ts`), then the rules between
 * fields, and gives either the normalized `WorkflowDefinition` or every problem found — each with its field path
 * (`phases[1].behavior`), the 1-based line (and column) of that field in the file (or of the nearest enclosing field
 * that exists, for a missing one) and a message that says what is wrong and what to write instead.
 *
 * Problems are collected, not stopped at: a phase with a structural error is still checked against the workflow-wide
 * rules through its id, and every well-formed phase gets the mode and checkpoint rules.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { closestMatch } from '../../closestMatch';
import type {
  CheckpointAction,
  CheckpointDefinition,
  ExecutionMode,
  GapCheckDefinition,
  PhaseAgents,
  PhaseDefinition,
  SubagentSpec,
  WorkflowDefinition,
  WorkflowIssue,
  WorkflowParse,
  WorkflowSource,
} from './workflowDefinition';
import { dataProblem, MAX_WORKFLOW_DEPTH } from './workflowData';
import {
  EXECUTION_MODES,
  PhaseSchema,
  WorkflowFileSchema,
  type PhaseFile,
  type SubagentFile,
  type WorkflowFile,
} from './workflowSchema';

export interface ParseWorkflowOptions {
  /** The registered subagent types; when given, a subagent `type` outside it is an issue (with a suggestion). */
  readonly knownTypes?: ReadonlySet<string>;
  /** The read-only tools skills may name besides the agent types; when given, any other skill is an issue. */
  readonly knownTools?: ReadonlySet<string>;
}

/** The largest workflow file read (a rich workflow is a few KB; 5 MB took 5 s to parse and was read on every run). */
export const MAX_WORKFLOW_CHARS = 256 * 1024;
/** The most phases one workflow may have. */
export const MAX_WORKFLOW_PHASES = 50;

/** The `repeat_phase` target that means the checkpoint's own phase; no phase may have it as its id. */
const CURRENT_PHASE = 'current';

/** The field of an issue about the YAML text where no field could be named. */
const YAML_FIELD = '(yaml)';
/** The field of an issue about the whole file. */
const FILE_FIELD = '(file)';

type Path = readonly (string | number)[];

/** `['phases', 1, 'behavior']` -> `phases[1].behavior`. */
function fieldOf(path: Path): string {
  let out = '';
  for (const segment of path)
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? FILE_FIELD : out;
}

/** A value as quoted in a message (long values cut). */
function code(value: unknown): string {
  if (value === null) return 'an empty value';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `\`${text.length > 60 ? `${text.slice(0, 57)}…` : text}\``;
}
const list = (values: readonly string[]): string => values.map(value => `\`${value}\``).join(', ');

// ---------------------------------------------------------------------------------------------------------------
// Where a field is in the file
// ---------------------------------------------------------------------------------------------------------------

/** Finds fields in the parsed document: the line and column of a path, or of its nearest existing parent. */
class Locator {
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  /** The position of the key of `path`'s last field (or of the list item), else of the deepest part that exists. */
  locate(path: Path): { line: number; column: number } | undefined {
    let node: unknown = this.doc.contents;
    let offset: number | undefined = rangeStart(node);
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(item => (isScalar(item.key) ? item.key.value : item.key) === segment);
        if (!pair) break;
        offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item: unknown = node.items[segment];
        if (item === undefined) break;
        offset = rangeStart(item) ?? offset;
        node = item;
      } else {
        break;
      }
    }
    if (offset === undefined) return undefined;
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as YamlNode | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** Collects issues, each placed at its field. */
class Issues {
  readonly all: WorkflowIssue[] = [];
  constructor(private readonly locator: Locator | undefined) {}

  add(path: Path, message: string): void {
    const at = this.locator?.locate(path);
    this.all.push({ field: fieldOf(path), ...(at ? { line: at.line, column: at.column } : {}), message });
  }

  get any(): boolean {
    return this.all.length > 0;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Structural issues (zod) as messages that say what to do
// ---------------------------------------------------------------------------------------------------------------

/**
 * The schema of the field at `path` below `schema` (whose value is `value`), through optional/default wrappers; at a
 * union, the option that fits the value written there (a list, or the mapping with the fewest unknown keys).
 */
function schemaAt(schema: z.ZodType | undefined, path: Path, value: unknown): z.ZodType | undefined {
  let current = pick(unwrap(schema), value);
  let here = value;
  for (const segment of path) {
    here = valueAt(here, [segment]);
    if (current instanceof z.ZodObject && typeof segment === 'string')
      current = pick(unwrap(current.shape[segment] as z.ZodType | undefined), here);
    else if (current instanceof z.ZodArray && typeof segment === 'number')
      current = pick(unwrap(current.element as z.ZodType), here);
    else return undefined;
  }
  return current;
}

/** The union at `path` itself (not one of its options), if that is what is there. */
function unionAt(schema: z.ZodType | undefined, path: Path, value: unknown): z.ZodUnion | undefined {
  const last = path[path.length - 1];
  const parent = path.length === 0 ? undefined : schemaAt(schema, path.slice(0, -1), value);
  const field =
    path.length === 0
      ? unwrap(schema)
      : parent instanceof z.ZodObject && typeof last === 'string'
        ? unwrap(parent.shape[last] as z.ZodType | undefined)
        : parent instanceof z.ZodArray && typeof last === 'number'
          ? unwrap(parent.element as z.ZodType)
          : undefined;
  return field instanceof z.ZodUnion ? field : undefined;
}

function pick(schema: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  if (!(schema instanceof z.ZodUnion)) return schema;
  const options = (schema.options as z.ZodType[]).map(unwrap);
  if (Array.isArray(value)) return options.find(option => option instanceof z.ZodArray);
  if (value === null || typeof value !== 'object')
    return options.find(option => !(option instanceof z.ZodObject) && !(option instanceof z.ZodArray));
  const keys = Object.keys(value);
  const unknown = (option: z.ZodObject) => keys.filter(key => !(key in option.shape)).length;
  const objects = options.filter((option): option is z.ZodObject => option instanceof z.ZodObject);
  return objects.reduce<z.ZodObject | undefined>(
    (best, option) => (best === undefined || unknown(option) < unknown(best) ? option : best),
    undefined,
  );
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
  return current;
}

function valueAt(data: unknown, path: Path): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** The first sentence of a field's description, to say what a missing field is for. */
function purposeOf(schema: z.ZodType | undefined): string {
  const description = schema?.description ?? unwrap(schema)?.description;
  if (!description) return '';
  const sentence = /^.*?[.:](?=\s|$)/.exec(description)?.[0] ?? description;
  return ` (${sentence.replace(/[.:]$/, '')})`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${code(value)}`;
  return `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : typeof value} ${code(value)}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: '`true` or `false`',
  array: 'a list',
  object: 'a mapping (`key: value` lines)',
  record: 'a mapping (`key: value` lines)',
};

/** zod's own wording starts like this; a message we wrote ourselves does not. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized)/;

/**
 * Adds one zod issue (found at `base` + issue.path, checked by `schema` rooted at `base`). A union that fails is
 * explained through the branch the value was evidently meant for (the one that did not fail at the union itself,
 * else the one with the fewest problems), so `checkpoint: { prompt: … }` is told it lacks `options`, not that it
 * matches neither shape.
 */
function addZodIssue(
  issues: Issues,
  issue: z.core.$ZodIssue,
  base: Path,
  schema: z.ZodType | undefined,
  data: unknown,
): void {
  const path: Path = [...base, ...(issue.path as (string | number)[])];
  const local = issue.path as (string | number)[];
  const value = valueAt(data, path);
  const baseValue = valueAt(data, base);
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && value === undefined && path.length > 0) {
    const key = path[path.length - 1];
    issues.add(
      path,
      ZOD_DEFAULT.test(issue.message)
        ? `Missing ${code(String(key))}${purposeOf(schemaAt(schema, local, baseValue))}: add it.`
        : issue.message,
    );
    return;
  }
  switch (issue.code) {
    case 'invalid_union': {
      const union = unionAt(schema, local, baseValue);
      const branches = issue.errors
        .map((errors, index) => ({ errors, index }))
        .filter(({ errors }) => !errors.some(error => error.path.length === 0 && error.code === 'invalid_type'));
      if (branches.length > 0) {
        // Each unknown key counts as a problem: `{ prompt, optons }` is a custom checkpoint with a typo, not an approval.
        const weight = (errors: readonly z.core.$ZodIssue[]) =>
          errors.reduce((sum, error) => sum + (error.code === 'unrecognized_keys' ? error.keys.length : 1), 0);
        const best = branches.reduce((a, b) => (weight(b.errors) < weight(a.errors) ? b : a));
        const branch = union?.options[best.index] as z.ZodType | undefined;
        for (const inner of best.errors) addZodIssue(issues, inner, path, branch, data);
        return;
      }
      issues.add(path, `${issue.message} Found ${kindOf(value)}.`);
      return;
    }
    case 'unrecognized_keys': {
      const parent = schemaAt(schema, local, baseValue);
      const allowed = parent instanceof z.ZodObject ? Object.keys(parent.shape) : [];
      for (const key of issue.keys) {
        const near = closestMatch(key, allowed);
        issues.add(
          [...path, key],
          `Unknown field ${code(key)}${near ? ` (did you mean ${code(near)}?)` : ''}: remove it or correct its name.` +
            (allowed.length > 0 ? ` Allowed here: ${list(allowed)}.` : ''),
        );
      }
      return;
    }
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      issues.add(
        path,
        `Expected ${expected}, found ${kindOf(value)}.${ZOD_DEFAULT.test(issue.message) ? '' : ` ${issue.message}`}`,
      );
      return;
    }
    case 'invalid_value': {
      if (!ZOD_DEFAULT.test(issue.message)) {
        issues.add(path, `${issue.message.replace(/\.$/, '')} (found ${code(value)}).`);
        return;
      }
      const values = issue.values.map(String);
      const near = typeof value === 'string' ? closestMatch(value, values) : undefined;
      issues.add(
        path,
        `Use one of ${list(values)} (found ${code(value)}${near ? `; did you mean ${code(near)}?` : ''}).`,
      );
      return;
    }
    case 'too_small':
    case 'too_big': {
      if (!ZOD_DEFAULT.test(issue.message)) {
        issues.add(path, issue.message);
        return;
      }
      const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const what = issue.origin === 'array' ? ' items' : issue.origin === 'string' ? ' characters' : '';
      const bound =
        issue.code === 'too_small'
          ? issue.inclusive === false
            ? 'more than'
            : 'at least'
          : issue.inclusive === false
            ? 'less than'
            : 'at most';
      const found = issue.origin === 'array' && Array.isArray(value) ? `${value.length}` : code(value);
      issues.add(path, `Use ${bound} ${String(limit)}${what} (found ${found}).`);
      return;
    }
    default:
      issues.add(path, ZOD_DEFAULT.test(issue.message) ? `${issue.message} (found ${code(value)}).` : issue.message);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The rules between fields
// ---------------------------------------------------------------------------------------------------------------

/**
 * A phase's fields that are well-formed on their own (the others, already reported by zod, are left out), and the
 * keys the file wrote: a rule about a missing field does not fire when the field is there but malformed.
 */
type LenientPhase = { readonly [K in keyof PhaseFile]?: PhaseFile[K] } & { readonly written: ReadonlySet<string> };

function lenientPhase(raw: unknown): LenientPhase | undefined {
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

interface RuleContext {
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
function checkModeAndBehavior(
  ctx: RuleContext,
  phase: LenientPhase,
  behavior: PhaseFile['behavior'],
  at: Path,
  mode: ExecutionMode,
  inherited: boolean,
): void {
  const { issues } = ctx;
  const { subagents } = phase;
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
  const from = inherited
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

function checkCheckpoint(ctx: RuleContext, phase: LenientPhase, index: number, at: Path): void {
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

function checkGapCheck(ctx: RuleContext, phase: LenientPhase, at: Path): void {
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

// ---------------------------------------------------------------------------------------------------------------
// Normalization (only for a file without issues)
// ---------------------------------------------------------------------------------------------------------------

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

function phaseOf(phase: PhaseFile, mode: ExecutionMode, line: number | undefined): PhaseDefinition {
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

// ---------------------------------------------------------------------------------------------------------------

/** Why a configured output path would leave the run's folder, or undefined when it stays inside. */
function leavesRunFolder(path: string): string | undefined {
  const inner = path.trim().replace(/^\{\{\s*output_dir\s*\}\}\/?/, '');
  if (inner.includes('\\')) return 'backslashes are not allowed';
  if (inner.startsWith('/') || /^[a-zA-Z]:/.test(inner)) return 'it is an absolute path';
  if (inner.split('/').includes('..')) return 'it leaves the run folder';
  return undefined;
}

/** Every `output_path` and the finalization's `output` stay in the run's folder: checked now, not after spending. */
function checkOutputPaths(issues: Issues, file: WorkflowFile): void {
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
        `${code(written)} cannot be written: ${why}. A run writes only under its folder \`.council/runs/<run-id>/\`: use a relative path such as \`scan/map.md\` or \`{{output_dir}}/scan/map.md\`.`,
      );
  };
  // A checkpoint links its files in the chat: a link may point into the workspace, never out of it.
  const checkShown = (shown: string, at: Path): void => {
    const inner = shown.trim().replace(/^\{\{\s*output_dir\s*\}\}\/?/, '');
    if (inner.startsWith('/') || /^[a-zA-Z]:/.test(inner) || inner.replace(/\\/g, '/').split('/').includes('..'))
      issues.add(
        at,
        `${code(shown)} cannot be shown: it points outside the workspace. Show a file of the workspace or of the run, e.g. \`docs/notes.md\` or \`{{output_dir}}/plan.md\`.`,
      );
  };
  visit(file.phases, ['phases']);
  if (file.finalization) check(file.finalization.output, ['finalization', 'output']);
}

/** A skill names an agent type or a read-only tool that exists here (with a suggestion when it is a near miss). */
function checkSkills(ctx: RuleContext, file: WorkflowFile, knownTools: ReadonlySet<string> | undefined): void {
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

function isExecutionMode(value: unknown): value is ExecutionMode {
  return typeof value === 'string' && (EXECUTION_MODES as readonly string[]).includes(value);
}

/** Parses and validates one workflow file; every problem is reported, with where it is and what to change. */
export function parseWorkflow(text: string, source: WorkflowSource, options: ParseWorkflowOptions = {}): WorkflowParse {
  if (text.length > MAX_WORKFLOW_CHARS) {
    const size = `${Math.round(text.length / 1024).toLocaleString('en-US')} KB`;
    return {
      ok: false,
      source,
      issues: [
        {
          field: FILE_FIELD,
          message: `The file has ${size}; a workflow file may have at most ${MAX_WORKFLOW_CHARS / 1024} KB. Split it, or move long text into the files its agents read.`,
        },
      ],
    };
  }
  const lineCounter = new LineCounter();
  // `merge`: `<<: *shared` merge keys, so phases can share a config through an anchor.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const locator = new Locator(doc, lineCounter);
  const issues = new Issues(locator);
  const fail = (): WorkflowParse => ({ ok: false, source, issues: sortedIssues(issues.all) });

  if (doc.errors.length > 0) {
    const seen = new Set<string>();
    for (const error of doc.errors) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      // The parser gives up on deep nesting with the engine's own words; say what it means.
      const message = /call stack/i.test(error.message)
        ? `The YAML is nested too deeply to read (the parser gave up here). A workflow nests only a few levels (phases, a phase, its fields, at most ${MAX_WORKFLOW_DEPTH}): flatten it.`
        : `YAML syntax error: ${error.message.replace(/\.?\s*$/, '')}. Fix the YAML there (indentation, a missing \`:\`, an unclosed quote or bracket).`;
      if (seen.has(`${line}:${message}`)) continue;
      seen.add(`${line}:${message}`);
      issues.all.push({ field: YAML_FIELD, line, column: col, message });
    }
    return fail();
  }
  if (doc.contents === null || (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === ''))) {
    issues.all.push({
      field: FILE_FIELD,
      message:
        'The file is empty: start from the template (Council: Create Workflow) with `name`, `description` and `phases`.',
    });
    return fail();
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    issues.add(
      [],
      `The YAML could not be read: ${error instanceof Error ? error.message : String(error)}. Remove aliases that expand too much.`,
    );
    return fail();
  }
  const problem = dataProblem(data);
  if (problem?.kind === 'cycle') {
    issues.add(
      problem.path,
      `This value contains itself through a YAML alias (it refers back to \`${fieldOf(problem.target)}\`): a workflow's data must be plain values that can be saved. Write the value out instead of the alias.`,
    );
    return fail();
  }
  if (problem?.kind === 'deep') {
    issues.add(
      problem.path,
      `The data is nested more than ${MAX_WORKFLOW_DEPTH} levels deep here: a workflow needs only a few levels. Flatten it.`,
    );
    return fail();
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    issues.add([], `A workflow file is a mapping (\`name:\`, \`description:\`, \`phases:\` …); found ${kindOf(data)}.`);
    return fail();
  }

  const phaseCount = Array.isArray((data as { phases?: unknown }).phases)
    ? (data as { phases: unknown[] }).phases.length
    : 0;
  if (phaseCount > MAX_WORKFLOW_PHASES) {
    issues.add(
      ['phases'],
      `The workflow has ${phaseCount.toLocaleString('en-US')} phases; at most ${MAX_WORKFLOW_PHASES} are allowed. Split it into several workflows.`,
    );
    return fail();
  }
  const whole = WorkflowFileSchema.safeParse(data);
  if (!whole.success) for (const issue of whole.error.issues) addZodIssue(issues, issue, [], WorkflowFileSchema, data);

  // The rules between fields, on every phase that is well-formed on its own.
  const raw = data as Record<string, unknown>;
  const rawPhases: unknown[] = Array.isArray(raw['phases']) ? raw['phases'] : [];
  const workflowMode: ExecutionMode | undefined =
    raw['execution_mode'] === undefined
      ? 'strict'
      : isExecutionMode(raw['execution_mode'])
        ? raw['execution_mode']
        : undefined;
  const ids = rawPhases.map(phase => {
    const id = (phase as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  });
  const ctx: RuleContext = { issues, ids, knownTypes: options.knownTypes };

  const firstIndex = new Map<string, number>();
  ids.forEach((id, index) => {
    if (id === undefined) return;
    const at: Path = ['phases', index, 'id'];
    if (id === CURRENT_PHASE) {
      issues.add(
        at,
        '`current` is reserved (a checkpoint’s `repeat_phase` target `current` means its own phase): choose another id.',
      );
    }
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, index);
      return;
    }
    const firstLine = locator.locate(['phases', first])?.line;
    issues.add(
      at,
      `Phase id ${code(id)} is already used by phases[${first}]${firstLine ? ` (line ${firstLine})` : ''}: give each phase its own id.`,
    );
  });

  rawPhases.forEach((rawPhase, index) => {
    const phase = lenientPhase(rawPhase);
    if (!phase) return;
    const at: Path = ['phases', index];
    const mode = phase.execution_mode ?? (phase.written.has('execution_mode') ? undefined : workflowMode);
    if (mode !== undefined && phase.behavior !== undefined)
      checkModeAndBehavior(ctx, phase, phase.behavior, at, mode, phase.execution_mode === undefined);
    if (phase.id !== undefined) checkCheckpoint(ctx, phase, index, at);
    checkGapCheck(ctx, phase, at);
  });

  if (whole.success) {
    checkOutputPaths(issues, whole.data);
    checkSkills(ctx, whole.data, options.knownTools);
  }
  if (issues.any || !whole.success) return fail();
  const file: WorkflowFile = whole.data;
  const workflow: WorkflowDefinition = {
    name: file.name,
    description: file.description ?? '',
    executionMode: file.execution_mode,
    phases: file.phases.map((phase, index) =>
      phaseOf(phase, phase.execution_mode ?? file.execution_mode, locator.locate(['phases', index])?.line),
    ),
    ...(file.finalization
      ? { finalization: { template: file.finalization.template, output: file.finalization.output } }
      : {}),
    source,
  };
  return { ok: true, workflow };
}

/** In file order (issues without a line first), keeping the order found among issues on the same line. */
function sortedIssues(all: readonly WorkflowIssue[]): WorkflowIssue[] {
  return all
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => (a.issue.line ?? 0) - (b.issue.line ?? 0) || a.order - b.order)
    .map(({ issue }) => issue);
}
