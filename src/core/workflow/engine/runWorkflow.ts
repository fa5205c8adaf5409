import { ActionableError } from '../../actionableError';
import type { Clock } from '../../clock';
import {
  CancelledError,
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
} from '../../llm/languageModel';
import { SpendingGovernor, type SpendingLimits, type SpendingScope } from '../../llm/spending/governor';
import { SpendingLedger, type SpendTotals } from '../../llm/spending/ledger';
import { PriceBook } from '../../llm/spending/prices';
import type { UsageMeter } from '../../llm/usage';
import { mapBounded } from '../../llm/boundedParallel';
import { NeedsUserInput } from './needsUserInput';
import type { WorkspaceReader } from '../../workspace/workspaceReader';
import type { PhaseDefinition, SubagentSpec, WorkflowDefinition } from '../definition/workflowDefinition';
import type { ScriptSandbox } from '../sandbox/scriptSandbox';
import type { AgentResult, AgentTypeRegistry } from './agentTypes';
import { escalationOf, pendingCheckpointOf, type CheckpointDecision } from './checkpoints';
import { fillTemplate } from './templating';
import { PhaseCursor } from './phaseCursor';
import { renderFinalDocument } from './finalization';
import { evaluateGapCheck, subagentSpecsOf } from './gapCheck';
import { outputPath, type RunOutputs } from './runOutputs';
import type { ReadOnlyTools } from './skills';
import { runSkills } from './skills';
import { workflowMetadataOf } from './workflowMetadata';
import type { WorkflowProgress } from './workflowProgress';
import { runSpent, WorkflowRunState, type PendingCheckpoint } from './workflowRunState';
import type { ScriptSpendLimits } from './scriptSpending';
import { evaluateCondition, runWorkflowScript, type ScriptHost, type ScriptSite } from './workflowScripts';

/** Bounds of a run, enforced here and nowhere else. */
export interface WorkflowLimits {
  /** Agents running at once in a parallel phase. */
  readonly concurrency: number;
  /** Subagents one phase may spawn in one pass (listed + adaptive + gap-check additions). */
  readonly maxSubagentsPerPhase: number;
  /** Times agents may send the run back to an earlier phase. */
  readonly maxRouteBacks: number;
  /** Passes through one phase (repeats chosen at checkpoints included), so no loop runs forever. */
  readonly maxPhasePasses: number;
  /** Files one run may write (a file written again counts once), and their bytes in all. */
  readonly maxFiles: number;
  readonly maxBytes: number;
}

const DEFAULT_WORKFLOW_LIMITS: WorkflowLimits = {
  concurrency: 3,
  maxSubagentsPerPhase: 8,
  maxRouteBacks: 1,
  maxPhasePasses: 5,
  maxFiles: 200,
  maxBytes: 20 * 1024 * 1024,
};

/** What a run may spend, over all its turns, and what tokens cost. */
export interface RunSpending {
  readonly limits: SpendingLimits;
  readonly prices: PriceBook;
  /** Each script's own caps (default: `DEFAULT_SCRIPT_SPEND_LIMITS`). */
  readonly script?: ScriptSpendLimits;
  /** Called after every request with the run's totals (progress lines). */
  readonly onSpend?: (totals: SpendTotals) => void;
}

/** Who a run's budget stop names, and how the user goes on after raising the limit. */
function runScope(workflow: WorkflowDefinition): SpendingScope {
  return {
    subject: workflow.name === 'plan' ? 'This /plan run' : `This \`${workflow.name}\` workflow run`,
    settings: { credits: '`council.budget.runMaxCredits`', requests: '`council.budget.runMaxRequests`' },
    goOn: 'press Try again to continue where it stopped',
  };
}

/** Inputs of {@link runWorkflow}. */
export interface WorkflowRunRequest {
  readonly workflow: WorkflowDefinition;
  readonly agents: AgentTypeRegistry;
  /** Runs the workflow's scripts; a workflow with scripts cannot run without one. */
  readonly sandbox?: ScriptSandbox;
  readonly model: LanguageModel;
  /** The model for a subagent's `config.model` (e.g. `sonnet`); the run's model when absent or unavailable. */
  readonly modelFor?: (name: string | undefined) => Promise<LanguageModel>;
  readonly reader: WorkspaceReader;
  readonly outputs: RunOutputs;
  readonly clock: Clock;
  readonly token: CancellationSignal;
  readonly usage?: UsageMeter;
  /** The run's budget and prices; without it the run is not limited, and its ledger is still kept. */
  readonly spending?: RunSpending;
  /** Read-only VS Code language-model tools a skill may name. */
  readonly tools?: ReadOnlyTools;
  readonly onProgress?: (event: WorkflowProgress) => void;
  /** Called with the state after every phase, at every checkpoint and when the run stops: persist it. */
  readonly onSave?: (state: WorkflowRunState) => Promise<void>;
  /** Answers a checkpoint now; `undefined` pauses the run there (its state saved) until a later call decides. */
  readonly checkpoint?: (
    pending: PendingCheckpoint,
    state: WorkflowRunState,
  ) => Promise<CheckpointDecision | undefined>;
  readonly limits?: Partial<WorkflowLimits>;
  /** A new run: its id (`wf-<uuid>`), goal and feature flags. */
  readonly start?: {
    readonly runId: string;
    readonly goal: string;
    readonly featureName?: string;
    readonly flags?: readonly string[];
    /** What agent types start from (e.g. the pipeline stages' board). */
    readonly blackboard?: Readonly<Record<string, unknown>>;
  };
  /** A saved run to continue, and the decision for its pending checkpoint, if any. */
  readonly resume?: { readonly state: WorkflowRunState; readonly decision?: CheckpointDecision };
}

/** How a call to runWorkflow ended; every outcome carries the state to resume from. */
export type WorkflowOutcome =
  | { readonly status: 'completed'; readonly state: WorkflowRunState }
  | { readonly status: 'paused'; readonly state: WorkflowRunState; readonly checkpoint: PendingCheckpoint }
  | { readonly status: 'aborted'; readonly state: WorkflowRunState; readonly message: string }
  | { readonly status: 'cancelled'; readonly state: WorkflowRunState }
  | {
      readonly status: 'needs_user';
      readonly state: WorkflowRunState;
      readonly question: string;
      readonly reason: string;
    }
  | { readonly status: 'failed'; readonly state: WorkflowRunState; readonly message: string; readonly error: unknown };

/** "20 MB", "1.5 KB", "400 bytes". */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/** A kebab-case name for the feature, from the goal's first words. */
function featureNameOf(goal: string): string {
  return (
    goal
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .split('-')
      .filter(Boolean)
      .slice(0, 6)
      .join('-') || 'feature'
  );
}

function newState(request: WorkflowRunRequest, start: NonNullable<WorkflowRunRequest['start']>): WorkflowRunState {
  const now = request.clock.now();
  const { workflow } = request;
  return WorkflowRunState.parse({
    stateVersion: 1,
    runId: start.runId,
    workflowSource: workflow.source.path,
    context: {
      workflow: { name: workflow.name, started_at: now, execution_mode: workflow.executionMode },
      feature: { name: start.featureName ?? featureNameOf(start.goal), flags: [...(start.flags ?? [])] },
      goal: start.goal,
      output_dir: request.outputs.folder,
      phases: { current: null, completed: [], iteration_counts: {} },
      subagents_spawned: 0,
      deliverables: [],
      checkpoints: [],
      skip_phases: [],
      gap_checks: [],
    },
    nextPhase: workflow.phases[0]?.id ?? null,
    phaseTallies: Object.fromEntries(
      workflow.phases.map(phase => [phase.id, { status: 'pending', subagents_spawned: 0, model_requests: 0 }]),
    ),
    routeBacks: 0,
    requestsUsed: 0,
    blackboard: { ...start.blackboard },
    updatedAt: now,
  });
}

/** Thrown inside a phase when a gap check or checkpoint chose `abort`. */
class RunAborted extends Error {}

/**
 * Runs (or resumes) a workflow (spec 002): each phase's agents in its execution mode and behavior, its skills,
 * its gap check, its checkpoint; then the finalization. The state is saved after every phase and at every
 * checkpoint; a checkpoint nobody answers pauses the run. Known failures come back as outcomes with a
 * resumable state; nothing outside the run's folder is written.
 */
export async function runWorkflow(request: WorkflowRunRequest): Promise<WorkflowOutcome> {
  const { workflow, clock, token } = request;
  const limits: WorkflowLimits = { ...DEFAULT_WORKFLOW_LIMITS, ...request.limits };
  const onProgress = request.onProgress ?? (() => {});
  const start = request.start;
  if (!request.resume && !start) throw new Error('runWorkflow needs `start` or `resume`.');
  // A working copy, mutated as the run goes (a resumed state is validated on the way in).
  const st: WorkflowRunState = structuredClone(
    request.resume
      ? WorkflowRunState.parse(request.resume.state)
      : newState(request, start as NonNullable<typeof start>),
  );
  const ctx = st.context;
  const contents = new Map<string, string>();
  let decision = request.resume?.decision;
  let currentPhase: string | undefined;

  // The state is validated on the way in (a resumed state); what the engine builds is already well-formed, so a
  // save is a plain copy (parsing the stage records on every save cost the pipeline ~0.1 of its critical path).
  const snapshot = (): WorkflowRunState => structuredClone(st);
  const save = async (): Promise<WorkflowRunState> => {
    st.updatedAt = clock.now();
    const copy = snapshot();
    await request.onSave?.(copy);
    return copy;
  };
  const usage: UsageMeter = {
    record: call => {
      st.requestsUsed += 1;
      const tally = currentPhase ? st.phaseTallies[currentPhase] : undefined;
      if (tally) tally.model_requests += 1;
      request.usage?.record(call);
    },
  };
  // One governor for everything the run sends: agents, stages, skills and scripts; its ledger lives in the state.
  const ledger = SpendingLedger.from(st.spending ?? []);
  const governor = SpendingGovernor.create({
    limits: request.spending?.limits ?? {},
    prices: request.spending?.prices ?? new PriceBook(),
    scope: runScope(workflow),
    ledger,
    spentBefore: runSpent(st),
    step: () => (currentPhase ? `phase ${currentPhase}` : 'finalization'),
    onSpend: totals => {
      st.spending = ledger.toJSON();
      request.spending?.onSpend?.(totals);
    },
  });
  const cursor = new PhaseCursor(workflow, st);
  const templateValues = (phase: string): Record<string, string> => ({
    output_dir: ctx.output_dir,
    phase_id: phase,
    workflow_name: workflow.name,
    goal: ctx.goal,
    feature_name: ctx.feature.name,
  });

  // Earlier deliverables' text, for the helpers and `{{include:…}}` (a resumed run reads them back).
  for (const deliverable of ctx.deliverables) {
    const text = await request.outputs.read(deliverable.path).catch(() => undefined);
    if (text !== undefined) contents.set(deliverable.path, text);
  }

  const record = async (phase: string, subagent: string, path: string, content: string): Promise<string> => {
    // What the run may write in all, checked before a byte is written (a rewritten file replaces its old size).
    const target = outputPath(ctx.output_dir, path);
    const before = ctx.deliverables.find(deliverable => deliverable.path === target);
    const files = ctx.deliverables.length + (before ? 0 : 1);
    const bytes =
      ctx.deliverables.reduce((sum, deliverable) => sum + deliverable.size_bytes, 0) -
      (before?.size_bytes ?? 0) +
      new TextEncoder().encode(content).length;
    if (files > limits.maxFiles || bytes > limits.maxBytes)
      throw new ActionableError(
        `Refused to write \`${target}\`: a run may write at most ${limits.maxFiles} files and ${sizeText(limits.maxBytes)} in all, and this would make ${files} files, ${sizeText(bytes)}. Write fewer or smaller files.`,
      );
    const written = await request.outputs.write(path, content);
    const now = clock.now();
    const existing = ctx.deliverables.findIndex(deliverable => deliverable.path === written.path);
    const entry = {
      phase,
      subagent,
      path: written.path,
      size_bytes: written.sizeBytes,
      created_at: now,
      timestamp: now,
    };
    if (existing >= 0) ctx.deliverables[existing] = entry;
    else ctx.deliverables.push(entry);
    contents.set(written.path, content);
    onProgress({ kind: 'deliverable', phase, path: written.path });
    return written.path;
  };
  const sandbox: ScriptSandbox = request.sandbox ?? {
    run: () =>
      Promise.reject(
        new ActionableError(`${workflow.source.path} runs scripts, and no script sandbox is available here.`),
      ),
  };
  const hostFor = (phase: string, subagent: string): ScriptHost => ({
    sandbox,
    model: request.model,
    spending: governor,
    ...(request.spending?.script ? { limits: request.spending.script } : {}),
    reader: request.reader,
    token,
    usage,
    outputFolder: ctx.output_dir,
    writeFile: (path, content) => record(phase, subagent, path, content),
    contents: () => contents,
    onScriptRun: (site, cpuMs) => onProgress({ kind: 'script', phase: site.phase, role: site.role, cpuMs }),
  });
  const site = (phase: string, role: string): ScriptSite => ({ source: workflow.source.path, phase, role });

  const spawn = async (
    phase: PhaseDefinition,
    specs: readonly SubagentSpec[],
    sequential: boolean,
    feedback: string | undefined,
  ): Promise<AgentResult[]> => {
    const runOne = async (spec: SubagentSpec, agentToken: CancellationSignal, index: number): Promise<AgentResult> => {
      const type = request.agents.get(spec.type);
      if (!type)
        throw new ActionableError(
          `${workflow.source.path}, phase \`${phase.id}\`: there is no subagent type \`${spec.type}\`. Known types: ${[...request.agents.names()].sort().join(', ')}.`,
        );
      onProgress({ kind: 'agent-started', phase: phase.id, type: spec.type });
      ctx.subagents_spawned += 1;
      const tally = st.phaseTallies[phase.id];
      if (tally) tally.subagents_spawned += 1;
      const model = governor.model(
        typeof spec.config.model === 'string' && request.modelFor
          ? await request.modelFor(spec.config.model)
          : request.model,
        spec.type,
      );
      const result = await type.run({
        runId: st.runId,
        routeBacksLeft: Math.max(0, limits.maxRouteBacks - st.routeBacks),
        spec,
        phase,
        workflowName: workflow.name,
        context: structuredClone(ctx),
        ...(feedback ? { feedback } : {}),
        blackboard: { get: key => st.blackboard[key], set: (key, value) => void (st.blackboard[key] = value) },
        model,
        reader: request.reader,
        runFiles: contents,
        clock,
        token: agentToken,
        usage,
        onProgress,
      });
      if (result.audit && tally) {
        const before = tally.audit ?? { checked: 0, findings: [] };
        tally.audit = {
          checked: before.checked + result.audit.checked,
          findings: [...before.findings, ...result.audit.findings],
        };
      }
      const configured = spec.config.output_path;
      // Two agents of one type in one pass would write the same default file: each gets its number.
      const sameType = specs.filter(other => other.type === spec.type);
      const ordinal =
        sameType.length > 1 ? specs.slice(0, index + 1).filter(other => other.type === spec.type).length : undefined;
      for (const [fileIndex, file] of result.files.entries()) {
        const path =
          fileIndex === 0 && typeof configured === 'string' && configured
            ? fillTemplate(configured, templateValues(phase.id))
            : ordinal === undefined
              ? file.path
              : file.path.replace(/(\.[A-Za-z0-9]+)?$/, extension => `-${ordinal}${extension}`);
        await record(phase.id, spec.type, path || `${phase.id}/${spec.type}-${index + 1}.md`, file.content);
      }
      onProgress({ kind: 'agent-finished', phase: phase.id, type: spec.type, summary: result.summary });
      return result;
    };
    if (specs.length > limits.maxSubagentsPerPhase) {
      throw new ActionableError(
        `${workflow.source.path}, phase \`${phase.id}\` asked for ${specs.length} subagents; a phase may spawn at most ${limits.maxSubagentsPerPhase} per pass. Spawn fewer, or split the work over phases.`,
      );
    }
    if (sequential) {
      const results: AgentResult[] = [];
      for (const [index, spec] of specs.entries()) {
        throwIfCancelled(token);
        results.push(await runOne(spec, token, index));
      }
      return results;
    }
    return mapBounded(specs, limits.concurrency, token, (spec, agentToken, index) => runOne(spec, agentToken, index));
  };

  /** The phase's agents: listed, adaptive, or its main script. Returns the agents' results. */
  const runAgents = async (phase: PhaseDefinition, feedback: string | undefined): Promise<AgentResult[]> => {
    const { agents } = phase;
    // The phase's own scripts run as its main agent and see the checkpoint's feedback.
    const runMainScript = (scriptSite: ScriptSite, code: string) =>
      runWorkflowScript(hostFor(phase.id, 'main'), scriptSite, 'body', code, ctx, { feedback: feedback ?? null });
    if (agents.behavior === 'main-only') {
      await runMainScript(site(phase.id, 'main agent script'), agents.mainScript);
      return [];
    }
    let specs: readonly SubagentSpec[] = agents.mode === 'adaptive' ? agents.always : agents.subagents;
    if (agents.mode === 'adaptive' && agents.adaptiveScript) {
      const scriptSite = site(phase.id, 'adaptive script');
      const value = await runMainScript(scriptSite, agents.adaptiveScript);
      specs = [...specs, ...subagentSpecsOf(value, scriptSite, request.agents.names())];
    }
    const results = await spawn(phase, specs, agents.behavior === 'sequential', feedback);
    if (phase.mainScript) await runMainScript(site(phase.id, 'main agent script'), phase.mainScript);
    return results;
  };

  /** Gap check after the agents: retries and additions within `max_iterations`; an escalation to return. */
  const checkGaps = async (phase: PhaseDefinition): Promise<PendingCheckpoint | undefined> => {
    const gapCheck = phase.gapCheck;
    if (!gapCheck) return undefined;
    for (let iteration = 1; ; iteration++) {
      const verdict = await evaluateGapCheck(
        gapCheck,
        hostFor(phase.id, 'gap-check'),
        { source: workflow.source.path, phase: phase.id },
        ctx,
        request.agents.names(),
      );
      onProgress({ kind: 'gap-check', phase: phase.id, iteration, status: verdict.status, gaps: verdict.gaps });
      const lastTry = iteration >= gapCheck.maxIterations;
      const action =
        verdict.status === 'complete'
          ? 'none'
          : lastTry && (verdict.action === 'retry' || verdict.action === 'spawn_additional')
            ? 'gave_up'
            : verdict.action;
      const spawned =
        action === 'spawn_additional' && verdict.status === 'incomplete'
          ? verdict.additionalAgents.map(agent => agent.type)
          : [];
      ctx.gap_checks.push({
        phase: phase.id,
        iteration,
        status: verdict.status,
        attempts: iteration,
        gaps: [...verdict.gaps],
        action_taken: action,
        agents_spawned: spawned,
        timestamp: clock.now(),
      });
      if (verdict.status === 'complete') return undefined;
      const gapsText = `A check of this phase found gaps; address them:\n${verdict.gaps.map(gap => `- ${gap}`).join('\n')}`;
      switch (action) {
        case 'abort':
          throw new RunAborted(
            verdict.message ??
              `The gap check of phase \`${phase.id}\` stopped the run: ${verdict.gaps.join('; ') || 'no reason given'}.`,
          );
        case 'escalate':
          return escalationOf(
            phase,
            verdict.message ?? `The gap check of ${phase.name} found gaps. Continue anyway?`,
            verdict.gaps,
          );
        case 'gave_up':
          return escalationOf(
            phase,
            `${phase.name} still has gaps after ${gapCheck.maxIterations} attempts (its \`max_iterations\`). Continue anyway?`,
            verdict.gaps,
          );
        case 'retry':
          await runAgents(phase, gapsText);
          break;
        case 'spawn_additional':
          if (verdict.status === 'incomplete') await spawn(phase, verdict.additionalAgents, false, gapsText);
          break;
      }
    }
  };

  /** After the phase's work: its checkpoint (if its condition holds), or straight on. */
  const offerCheckpoint = async (phase: PhaseDefinition): Promise<void> => {
    const checkpoint = phase.checkpoint;
    if (!checkpoint) return;
    if (checkpoint.kind === 'custom' && checkpoint.condition) {
      const show = await evaluateCondition(
        hostFor(phase.id, 'checkpoint'),
        site(phase.id, 'checkpoint condition'),
        checkpoint.condition,
        ctx,
      );
      if (!show) return;
    }
    st.pendingCheckpoint = pendingCheckpointOf(workflow, phase, checkpoint, templateValues(phase.id), ctx.skip_phases);
  };

  /** A phase is done: recorded, and the run goes on with the next. */
  const completePhase = (phase: PhaseDefinition): void => {
    cursor.complete(phase);
    onProgress({ kind: 'phase-completed', phase: phase.id });
  };

  const finalize = async (): Promise<void> => {
    const finalization = workflow.finalization;
    if (finalization && !st.finalPlan) {
      const templatePath = fillTemplate(finalization.template, templateValues('finalization'));
      const inRun = templatePath.startsWith(`${ctx.output_dir}/`) ? contents.get(templatePath) : undefined;
      const range = inRun === undefined ? await request.reader.readRange(templatePath, 1, 5_000, token) : undefined;
      const template = inRun ?? range?.text;
      if (template === undefined) {
        throw new ActionableError(
          `${workflow.source.path}: the finalization template \`${templatePath}\` does not exist. Create it (a Markdown file with placeholders such as {{goal}} and {{deliverables}}) or fix \`finalization.template\`.`,
        );
      }
      const document = renderFinalDocument(
        template,
        templateValues('finalization'),
        ctx,
        contents,
        clock.now().slice(0, 10),
      );
      st.finalPlan = await record(
        'finalization',
        'finalization',
        fillTemplate(finalization.output, templateValues('finalization')),
        document,
      );
    }
    st.completedAt = clock.now();
    ctx.phases.current = null;
  };

  const writeMetadata = async (): Promise<void> => {
    const metadata = workflowMetadataOf(workflow, st, clock.now());
    await request.outputs.write('metadata.json', `${JSON.stringify(metadata, null, 2)}\n`);
  };

  const stopped = async (error: unknown): Promise<WorkflowOutcome> => {
    const tally = currentPhase ? st.phaseTallies[currentPhase] : undefined;
    const cancelled =
      error instanceof CancelledError || (error instanceof LanguageModelFailure && error.kind === 'cancelled');
    if (tally && tally.status === 'running') tally.status = cancelled ? 'pending' : 'failed';
    const state = await save();
    await writeMetadata().catch(() => undefined);
    if (cancelled) return { status: 'cancelled', state };
    if (error instanceof RunAborted) return { status: 'aborted', state, message: error.message };
    if (error instanceof NeedsUserInput)
      return { status: 'needs_user', state, question: error.question, reason: error.reason };
    if (error instanceof LanguageModelFailure || error instanceof ActionableError)
      return { status: 'failed', state, message: error.message, error };
    throw error;
  };

  try {
    for (;;) {
      if (st.pendingCheckpoint) {
        const pending = st.pendingCheckpoint;
        const choice = decision ?? (await request.checkpoint?.(pending, snapshot()));
        decision = undefined;
        if (!choice) {
          const state = await save();
          await writeMetadata();
          return { status: 'paused', state, checkpoint: pending };
        }
        const decided = cursor.decide(pending, choice, clock.now());
        if ('abort' in decided) {
          const state = await save();
          await writeMetadata();
          return { status: 'aborted', state, message: decided.abort };
        }
        if (decided.completed) {
          onProgress({ kind: 'phase-completed', phase: decided.completed.id });
          await offerCheckpoint(decided.completed);
        }
        await save();
        continue;
      }
      const phaseId = cursor.next();
      if (phaseId === null) {
        await finalize();
        const state = await save();
        await writeMetadata();
        return { status: 'completed', state };
      }
      const phase = cursor.phase(phaseId);
      if (!phase)
        throw new ActionableError(
          `The saved run continues at phase \`${phaseId}\`, which ${workflow.source.path} no longer has. Start the workflow again.`,
        );
      throwIfCancelled(token);
      const passes = (ctx.phases.iteration_counts[phase.id] ?? 0) + 1;
      if (passes > limits.maxPhasePasses) {
        throw new ActionableError(
          `Phase \`${phase.id}\` already ran ${limits.maxPhasePasses} times in this run, the most one phase may. Continue past it or start a new run.`,
        );
      }
      currentPhase = phase.id;
      ctx.phases.current = phase.id;
      ctx.phases.iteration_counts[phase.id] = passes;
      const tally = st.phaseTallies[phase.id];
      if (tally) tally.status = 'running';
      onProgress({ kind: 'phase-started', phase: phase.id, name: phase.name, iteration: passes });
      // Kept in the state until the phase's work is done, so a phase that fails and is resumed still gets it.
      const feedback = st.feedback?.forPhase === phase.id ? st.feedback.text : undefined;

      const results = await runAgents(phase, feedback);
      const routeBack = results.find(result => result.routeBack)?.routeBack;
      const target = routeBack ? cursor.phaseSpawning(routeBack.toType) : undefined;
      if (routeBack && target && st.routeBacks < limits.maxRouteBacks) {
        onProgress({ kind: 'route-back', from: phase.id, to: target.id, rationale: routeBack.rationale });
        st.routeBacks += 1;
        if (tally) tally.status = 'pending';
        cursor.reopenFrom(target.id);
        st.feedback = { forPhase: target.id, text: routeBack.rationale };
        currentPhase = undefined;
        await save();
        continue;
      }
      await runSkills(phase, {
        agents: request.agents,
        tools: request.tools,
        values: templateValues(phase.id),
        condition: (skill, condition) =>
          evaluateCondition(hostFor(phase.id, 'skill'), site(phase.id, `skill "${skill}" condition`), condition, ctx),
        spawn: specs => spawn(phase, specs, true, feedback),
        record: (path, content) => record(phase.id, 'skill', path, content),
        token,
        onProgress,
      });
      const escalation = await checkGaps(phase);
      if (st.feedback?.forPhase === phase.id) delete st.feedback;
      if (escalation) {
        st.pendingCheckpoint = escalation;
      } else {
        completePhase(phase);
        await offerCheckpoint(phase);
      }
      currentPhase = undefined;
      await save();
    }
  } catch (error) {
    return stopped(error);
  }
}
