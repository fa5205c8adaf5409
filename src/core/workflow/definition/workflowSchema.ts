/**
 * The zod schema of a workflow file as written (spec 002 "Workflow Schema (YAML)"): snake_case, exactly the spec's
 * fields. It checks the structure only; the rules between fields (a loose phase is main-only, a strict parallel
 * phase has subagents, checkpoint targets name real phases, …) are in `parseWorkflow.ts`, which also turns the
 * result into the normalized `WorkflowDefinition`. The descriptions become the hover documentation of the published
 * JSON Schema (`schemas/workflow.schema.json`, built by `workflowJsonSchema.ts`).
 *
 * Every object is strict (an unknown key is an error, so a typo such as `subagent:` is caught) except a subagent's
 * `config` and its `context`, which carry whatever the agent type reads.
 */
import { z } from 'zod';

/** A workflow name, which is also its file name: kebab-case. */
export const WORKFLOW_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;

/** A phase id: lower-case letters, digits, `-` and `_` (it appears in paths and `{{phase_id}}`). */
const PHASE_ID_PATTERN = /^[a-z][a-z0-9_-]*$/;

export const EXECUTION_MODES = ['strict', 'loose', 'adaptive'] as const;
const PHASE_BEHAVIORS = ['parallel', 'sequential', 'main-only'] as const;
export const CHECKPOINT_ACTIONS = ['continue', 'repeat_phase', 'skip_phases', 'abort'] as const;
export const GAP_ACTIONS = ['retry', 'spawn_additional', 'escalate', 'abort'] as const;

/** `max_iterations` of a gap check when the file gives none, and the most it may be. */
const DEFAULT_GAP_ITERATIONS = 3;
const MAX_GAP_ITERATIONS = 10;

const text = (description: string) =>
  z.string().min(1, { error: 'Write a value here: it must not be empty.' }).describe(description);
const script = (description: string) =>
  z
    .string()
    .regex(/\S/, { error: 'The script is empty: write the JavaScript, or remove the field.' })
    .describe(description);

/**
 * An enum whose values each have their own meaning: `markdownEnumDescriptions` is what the YAML extension shows for
 * the value under the cursor and beside each completion.
 */
function describedEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  meanings: { readonly [K in T[number]]: string },
  description: string,
) {
  return z
    .enum(values)
    .meta({ description, markdownEnumDescriptions: values.map(value => meanings[value as T[number]]) });
}

const ExecutionModeSchema = describedEnum(
  EXECUTION_MODES,
  {
    strict: 'Exactly the listed `subagents` (a list), or for `behavior: main-only` the `main_agent.script`.',
    loose: 'Only the `main_agent.script` runs (`behavior: main-only`); `suggested_subagents` are informational.',
    adaptive: 'The `subagents.always` list, plus the subagents `subagents.adaptive.script` returns at run time.',
  },
  'How a phase decides its agents: `strict` (exactly the listed subagents), `loose` (only the main script) or `adaptive` (a fixed list plus what a script returns).',
);

const PhaseBehaviorSchema = describedEnum(
  PHASE_BEHAVIORS,
  {
    parallel: 'The subagents run at the same time.',
    sequential: 'The subagents run one after another; each sees the files the earlier ones wrote.',
    'main-only': 'No subagents: the `main_agent.script` does the work (the only behavior of a loose phase).',
  },
  'How the phase runs its agents: `parallel`, `sequential` or `main-only`.',
);

export const SubagentConfigSchema = z
  .looseObject({
    output_path: text(
      'Where the subagent writes its result; templated (`{{output_dir}}/scan.md`). A relative path is under the run folder.',
    ).optional(),
    max_tokens: z.number().int().positive().describe('The most tokens the subagent may answer with.').optional(),
    model: text('A model to use instead of the chat’s (e.g. `haiku`, `sonnet`, `opus`, or a model id).').optional(),
    context: z
      .record(z.string(), z.unknown())
      .describe('Extra values given to the subagent (`key: value`), e.g. `focus: error-handling`.')
      .optional(),
  })
  .describe(
    'Parameters of the subagent. Keys other than these are passed to the agent type as they are (e.g. `focus`, `depth`).',
  );

export const SubagentSchema = z
  .strictObject({
    type: text('The subagent type, e.g. `code-scout`, `pattern-analyzer`, `test-planner`, `reviewer`, `writer`.'),
    config: SubagentConfigSchema.optional(),
  })
  .describe('A subagent to spawn: its type and optional config.');

const SubagentListSchema = z.array(SubagentSchema);

const AdaptiveSubagentsSchema = z
  .strictObject({
    always: SubagentListSchema.describe('Subagents spawned on every run of the phase.').optional(),
    adaptive: z
      .strictObject({
        script: script(
          'JavaScript (a function body) that returns more subagents to spawn: an array of `{ type, config }`, e.g. ' +
            "`return context.feature.flags.includes('backend') ? [{ type: 'code-scout', config: { focus: 'api' } }] : [];`.",
        ),
      })
      .describe('Subagents decided when the phase runs.')
      .optional(),
  })
  .describe('The subagents of an adaptive phase: `always` spawned, plus those `adaptive.script` returns.');

const PhaseSubagentsSchema = z
  .union([SubagentListSchema, AdaptiveSubagentsSchema], {
    error:
      'Give `subagents` as a list (`- type: code-scout`) in a strict phase, or as `always:` / `adaptive:` in an adaptive phase.',
  })
  .describe(
    'Strict phase: a list of subagents (`- type: code-scout`). Adaptive phase: `always:` (a list) and/or `adaptive: { script }`. ' +
      'Required for parallel and sequential phases; a loose phase has none.',
  );

const SuggestedSubagentSchema = z.union(
  [
    text('A subagent type.'),
    z.strictObject({ type: text('A subagent type.') }).describe('A subagent type, as `{ type: … }`.'),
  ],
  { error: 'Give a suggested subagent as its type (`code-scout`) or as `type: code-scout`.' },
);

const MainAgentSchema = z
  .strictObject({
    script: script(
      'JavaScript (a function body, `await` allowed) run by the phase’s main agent. Host API: `await thinkHard(prompt)`, ' +
        '`await readFile(path)`, `await writeFile(path, content)`, `context`, `deliverables`, `identifyGaps(deliverables)`, ' +
        '`files_exist([...])`, `contains_todos(deliverables)`.',
    ),
  })
  .describe(
    'The main agent: required for main-only phases; in a parallel or sequential phase it runs after the subagents.',
  );

const CheckpointOnSelectSchema = z
  .strictObject({
    action: describedEnum(
      CHECKPOINT_ACTIONS,
      {
        continue: 'Go on with the next phase.',
        repeat_phase: 'Run `target` again (`current`: this phase), and the phases after it.',
        skip_phases: 'Go on, but skip the later phases listed in `phases`.',
        abort: 'Stop the run.',
      },
      'What the option does: `continue`, `repeat_phase` (with `target`), `skip_phases` (with `phases`) or `abort`.',
    ),
    target: text('For `repeat_phase`: the phase to run again; `current` (the default) is this phase.').optional(),
    phases: z
      .array(text('A phase id.'))
      .min(1, { error: 'List at least one phase to skip.' })
      .describe('For `skip_phases`: the later phases to skip.')
      .optional(),
  })
  .describe('What choosing the option does.');

const CheckpointOptionSchema = z
  .strictObject({
    label: text('The button’s text, e.g. `Continue` or `Redo phase`.'),
    with_feedback: z
      .boolean()
      .describe('Let the user type feedback with this choice; it is recorded and given to the next phase that runs.')
      .default(false),
    on_select: CheckpointOnSelectSchema,
  })
  .describe('One choice offered at the checkpoint.');

const ApprovalCheckpointSchema = z
  .strictObject({
    approval_required: z
      .literal(true, { error: 'Set `approval_required: true`, or remove the checkpoint.' })
      .describe(
        'Pause after the phase with the standard choices: continue (with or without feedback), redo the phase, skip the next phase, abort.',
      ),
  })
  .describe('Simple approval: pause after the phase with the standard choices.');

/*
 * A custom checkpoint must list its `options`: it is shown to ask for a choice, and defaulting to Continue / Redo /
 * Abort would duplicate `approval_required: true` silently. So a custom checkpoint without options is an error that
 * points to `approval_required: true` for the standard choices.
 */
const CustomCheckpointSchema = z
  .strictObject({
    condition: script(
      'A JavaScript expression over `context`; the checkpoint is shown only when it is true, e.g. `context.subagents_spawned > 0`.',
    ).optional(),
    prompt: text('The question shown to the user, e.g. `Review the scan before the review starts?`.'),
    show_files: z
      .array(text('A file path; templated (`{{output_dir}}/plan.md`).'))
      .describe('Files shown with the checkpoint, to review before choosing.')
      .optional(),
    options: z
      .array(CheckpointOptionSchema, {
        error: issue =>
          issue.input === undefined
            ? 'A custom checkpoint needs `options`: the choices shown to the user (each a `label` and an `on_select`). For the standard Continue / Redo / Abort choices use `approval_required: true` instead.'
            : undefined,
      })
      .min(1, { error: 'Give the checkpoint at least one option (a `label` and an `on_select`).' })
      .describe('The choices offered, in order.'),
  })
  .describe('A custom checkpoint: a prompt, the files to review and the choices.');

const CheckpointSchema = z
  .union([ApprovalCheckpointSchema, CustomCheckpointSchema], {
    error: 'A checkpoint is `approval_required: true`, or a custom checkpoint with a `prompt` and `options`.',
  })
  .describe(
    'Pause after the phase for the user: `approval_required: true` for the standard choices, or a custom prompt with options.',
  );

const GapCriterionSchema = z
  .strictObject({
    name: text('What the criterion checks, shown when it fails, e.g. `All files created`.'),
    check: script(
      "A JavaScript expression that is true when the criterion holds, e.g. `files_exist(['plan.md'])` or `!contains_todos(deliverables)`.",
    ),
  })
  .describe('One quality criterion.');

const GapOnFailureSchema = z
  .strictObject({
    action: describedEnum(
      GAP_ACTIONS,
      {
        retry: 'Run the phase again.',
        spawn_additional: 'Spawn `additional_agents`, then check again.',
        escalate: 'Ask the user whether to continue anyway (`message` is the question).',
        abort: 'Stop the run.',
      },
      'What to do when a criterion fails: `retry`, `spawn_additional`, `escalate` or `abort`.',
    ),
    message: text('The question or message shown to the user (for `escalate` and `abort`).').optional(),
    additional_agents: SubagentListSchema.describe('For `spawn_additional`: the subagents to spawn.').optional(),
    additionalAgents: SubagentListSchema.describe(
      'Same as `additional_agents` (the spelling gap-check scripts return).',
    ).optional(),
  })
  .describe('What to do when a criterion fails (default: `escalate`).');

const GapCheckSchema = z
  .strictObject({
    enabled: z.boolean().describe('`false` turns the gap check off without deleting it.').default(true),
    max_iterations: z
      .number()
      .int()
      .min(1)
      .max(MAX_GAP_ITERATIONS, {
        error: `At most ${MAX_GAP_ITERATIONS} iterations: a gap check that needs more is asking too much of the phase.`,
      })
      .describe(
        `How many times the phase may be checked (and retried) before the user is asked; 1 to ${MAX_GAP_ITERATIONS}, default ${DEFAULT_GAP_ITERATIONS}.`,
      )
      .default(DEFAULT_GAP_ITERATIONS),
    script: script(
      "JavaScript (a function body) that returns `{ status: 'complete' }` or `{ status: 'incomplete', gaps, action, additionalAgents?, message? }`. " +
        'Give either `script` or `criteria`.',
    ).optional(),
    criteria: z
      .array(GapCriterionSchema)
      .min(1, { error: 'List at least one criterion, or remove `criteria`.' })
      .describe('Criteria that must all hold; give either `script` or `criteria`.')
      .optional(),
    on_failure: GapOnFailureSchema.optional(),
  })
  .describe(
    'Check the phase’s output after it runs, and retry, spawn more agents, ask the user or stop when something is missing.',
  );

const SkillSchema = z
  .strictObject({
    name: text('A registered agent type or a read-only language-model tool, e.g. `codebase-researcher`.'),
    condition: script(
      "A JavaScript expression over `context`; the skill runs only when it is true, e.g. `context.feature.flags.includes('backend')`.",
    ).optional(),
    args: z
      .array(z.string())
      .describe('Arguments; templated (`{{output_dir}}`, `{{phase_id}}`, `{{workflow_name}}`).')
      .optional(),
  })
  .describe('A skill invoked during the phase.');

export const PhaseSchema = z
  .strictObject({
    id: z
      .string()
      .regex(PHASE_ID_PATTERN, {
        error: 'Use lower-case letters, digits, `-` and `_`, starting with a letter (e.g. `discovery`, `phase_1`).',
      })
      .describe('The phase’s id, unique in the workflow; checkpoints and `{{phase_id}}` refer to it.'),
    name: text('The phase’s name as shown to the user (default: its id).').optional(),
    description: z.string().describe('What the phase does.').optional(),
    execution_mode: ExecutionModeSchema.optional(),
    behavior: PhaseBehaviorSchema,
    main_agent: MainAgentSchema.optional(),
    subagents: PhaseSubagentsSchema.optional(),
    suggested_subagents: z
      .array(SuggestedSubagentSchema)
      .describe('Loose phases: subagent types the main agent might use; informational only.')
      .optional(),
    checkpoint: CheckpointSchema.optional(),
    gap_check: GapCheckSchema.optional(),
    skills: z.array(SkillSchema).describe('Skills invoked during the phase, in order.').optional(),
  })
  .describe('One phase of the workflow. `execution_mode` overrides the workflow’s.');

const FinalizationSchema = z
  .strictObject({
    template: text(
      'Path of the final document’s template (workspace-relative, or `{{output_dir}}/…` for a file the run wrote); placeholders such as `{{goal}}`, `{{deliverables}}`, `{{feedback}}`, `{{include:<path>}}`.',
    ),
    output: text('Where the final document is written; templated (`{{output_dir}}/final-plan.md`).'),
  })
  .describe('After the last phase: render `template` into `output`.');

export const WorkflowFileSchema = z
  .strictObject({
    name: z
      .string()
      .regex(WORKFLOW_NAME_PATTERN, {
        error: 'Use kebab-case: lower-case letters, digits and hyphens, starting with a letter (e.g. `code-review`).',
      })
      .describe('The workflow’s id, in kebab-case; `@council /workflow <name>` runs it. Best equal to the file name.'),
    description: text('What the workflow is for, in a sentence; shown when choosing a workflow.').optional(),
    execution_mode: ExecutionModeSchema.default('strict'),
    phases: z
      .array(PhaseSchema)
      .min(1, { error: 'A workflow needs at least one phase.' })
      .describe('The phases, run in order.'),
    finalization: FinalizationSchema.optional(),
  })
  .describe('A Council workflow (spec 002): phases of agents, checkpoints and gap checks.');

export type WorkflowFile = z.output<typeof WorkflowFileSchema>;
export type PhaseFile = z.output<typeof PhaseSchema>;
export type SubagentFile = z.output<typeof SubagentSchema>;
