/**
 * Reads a workflow file (spec 002): YAML syntax, then the structure (`workflowSchema.ts`), then the rules between
 * fields, and gives either the normalized `WorkflowDefinition` or every problem found — each with its field path
 * (`phases[1].behavior`), the 1-based line (and column) of that field in the file (or of the nearest enclosing field
 * that exists, for a missing one) and a message that says what is wrong and what to write instead.
 *
 * Problems are collected, not stopped at: a phase with a structural error is still checked against the workflow-wide
 * rules through its id, and every well-formed phase gets the mode and checkpoint rules.
 */
import { isScalar, LineCounter, parseDocument } from 'yaml';
import {
  CURRENT_PHASE,
  type ExecutionMode,
  type WorkflowDefinition,
  type WorkflowParse,
  type WorkflowSource,
} from './workflowDefinition';
import { dataProblem, MAX_WORKFLOW_DEPTH } from './workflowData';
import { phaseOf } from './phaseDefinition';
import {
  checkCheckpoint,
  checkGapCheck,
  checkModeAndBehavior,
  checkOutputPaths,
  checkSkills,
  lenientPhase,
  type RuleContext,
} from './phaseRules';
import { code, explainIssue, kindOf, type Path } from '../../zodIssues';
import { fieldOf, FILE_FIELD, Issues, sortedIssues, YAML_FIELD } from './workflowIssues';
import { EXECUTION_MODES, WorkflowFileSchema, type WorkflowFile } from './workflowSchema';

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

/** Parses and validates one workflow file; every problem is reported, with where it is and what to change. */
export function parseWorkflow(text: string, source: WorkflowSource, options: ParseWorkflowOptions = {}): WorkflowParse {
  if (text.length > MAX_WORKFLOW_CHARS) {
    const size = `${Math.round(text.length / 1024).toLocaleString('en-US')} KB`;
    const message = `The file has ${size}; a workflow file may have at most ${MAX_WORKFLOW_CHARS / 1024} KB. Split it, or move long text into the files its agents read.`;
    return { ok: false, source, issues: [{ field: FILE_FIELD, message }] };
  }
  const lineCounter = new LineCounter();
  // `merge`: `<<: *shared` merge keys, so phases can share a config through an anchor.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const issues = new Issues(doc, lineCounter);
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
  if (problem) {
    issues.add(
      problem.path,
      problem.kind === 'cycle'
        ? `This value contains itself through a YAML alias (it refers back to \`${fieldOf(problem.target)}\`): a workflow's data must be plain values that can be saved. Write the value out instead of the alias.`
        : `The data is nested more than ${MAX_WORKFLOW_DEPTH} levels deep here: a workflow needs only a few levels. Flatten it.`,
    );
    return fail();
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    issues.add([], `A workflow file is a mapping (\`name:\`, \`description:\`, \`phases:\` …); found ${kindOf(data)}.`);
    return fail();
  }

  const raw = data as Record<string, unknown>;
  const rawPhases: unknown[] = Array.isArray(raw['phases']) ? raw['phases'] : [];
  if (rawPhases.length > MAX_WORKFLOW_PHASES) {
    issues.add(
      ['phases'],
      `The workflow has ${rawPhases.length.toLocaleString('en-US')} phases; at most ${MAX_WORKFLOW_PHASES} are allowed. Split it into several workflows.`,
    );
    return fail();
  }
  const whole = WorkflowFileSchema.safeParse(data);
  if (!whole.success)
    for (const issue of whole.error.issues)
      for (const { path, message } of explainIssue(issue, WorkflowFileSchema, data)) issues.add(path, message);

  // The rules between fields, on every phase that is well-formed on its own.
  const workflowMode: ExecutionMode | undefined =
    raw['execution_mode'] === undefined ? 'strict' : EXECUTION_MODES.find(mode => mode === raw['execution_mode']);
  const ids = rawPhases.map(phase => {
    const id = (phase as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  });
  const ctx: RuleContext = { issues, ids, knownTypes: options.knownTypes };

  ids.forEach((id, index) => {
    if (id === undefined) return;
    const at: Path = ['phases', index, 'id'];
    if (id === CURRENT_PHASE) {
      issues.add(
        at,
        '`current` is reserved (a checkpoint’s `repeat_phase` target `current` means its own phase): choose another id.',
      );
    }
    const first = ids.indexOf(id);
    if (first === index) return;
    const firstLine = issues.locate(['phases', first])?.line;
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
    if (mode !== undefined) checkModeAndBehavior(ctx, phase, at, mode);
    if (phase.id !== undefined) checkCheckpoint(ctx, phase, index, at);
    checkGapCheck(ctx, phase, at);
  });

  if (whole.success) {
    checkOutputPaths(issues, whole.data);
    checkSkills(ctx, whole.data, options.knownTools);
  }
  if (issues.all.length > 0 || !whole.success) return fail();
  const file: WorkflowFile = whole.data;
  const workflow: WorkflowDefinition = {
    name: file.name,
    description: file.description ?? '',
    executionMode: file.execution_mode,
    phases: file.phases.map((phase, index) =>
      phaseOf(phase, phase.execution_mode ?? file.execution_mode, issues.locate(['phases', index])?.line),
    ),
    ...(file.finalization ? { finalization: file.finalization } : {}),
    source,
  };
  return { ok: true, workflow };
}
