import { ActionableError } from '../../actionableError';
import type { Clock } from '../../clock';
import {
  CancelledError,
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
} from '../../llm/languageModel';
import { SpendingGovernor, type SpendingLimits } from '../../llm/spending/governor';
import { SpendingLedger, type SpendTotals } from '../../llm/spending/ledger';
import type { LimitAdvice } from '../../llm/spending/limitAdvice';
import { PriceBook } from '../../llm/spending/prices';
import { workDoesNotFit, type SmallestWork, type TokensPerRequest } from '../../llm/spending/forecastCost';
import { mapBounded } from '../../llm/boundedParallel';
import { NeedsUserInput } from './needsUserInput';
import type { WorkspaceReader } from '../../workspace/workspaceReader';
import type { PhaseDefinition, SubagentSpec, WorkflowDefinition } from '../definition/workflowDefinition';
import type { ScriptSandbox } from '../sandbox/scriptSandbox';
import type { AgentResult, AgentTypeRegistry } from './agentTypes';
import { escalationOf, pendingCheckpointOf, type CheckpointDecision } from './checkpoints';
import { fillTemplate } from './templating';
import { PhaseCursor } from './phaseCursor';
import { REPETITION_BOUNDS } from './repetitionBounds';
import { renderFinalDocument } from './finalization';
import { evaluateGapCheck, subagentSpecsOf } from './gapCheck';
import { RunFiles, type RunFileLimits } from './runFiles';
import type { RunOutputs } from './runOutputs';
import type { ReadOnlyTools } from './skills';
import type { WorkflowContext } from './workflowContext';
import { workflowMetadataOf } from './workflowMetadata';
import type { WorkflowProgress } from './workflowProgress';
import { phaseStep, runSpent, WorkflowRunState, type PendingCheckpoint } from './workflowRunState';
import type { ScriptSpendLimits } from './scriptSpending';
import { evaluateCondition, runWorkflowScript, type ScriptHost, type ScriptSite } from './workflowScripts';

/** Bounds of a run, enforced here and nowhere else. */
export interface WorkflowLimits extends RunFileLimits {
  /** Agents running at once in a parallel phase. */
  readonly concurrency: number;
  /** Subagents one phase may spawn in one pass (listed + adaptive + gap-check additions). */
  readonly maxSubagentsPerPhase: number;
  /** `REPETITION_BOUNDS.phasePasses`: passes through one phase, whoever asks for another. */
  readonly maxPhasePasses: number;
  /** `REPETITION_BOUNDS.routeBacks`: route-backs in one run; a further one is refused and the phase goes on. */
  readonly maxRouteBacks: number;
}

export const DEFAULT_WORKFLOW_LIMITS: WorkflowLimits = {
  concurrency: 3,
  maxSubagentsPerPhase: 8,
  maxPhasePasses: REPETITION_BOUNDS.phasePasses,
  maxRouteBacks: REPETITION_BOUNDS.routeBacks,
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
  /** How this door says to raise a limit and go on (default: VS Code's settings). */
  readonly advice?: LimitAdvice;
  /**
   * The fewest requests a phase makes, when they can be counted ahead (the engine knows no agent's cost; the feature
   * that composes it does). Before every phase starts, the run's credit limit must leave room for them at the run
   * model's price, or the run stops there before spending anything on it (resumable once the limit is raised).
   */
  readonly phaseFloor?: PhaseFloor;
}

/** What the least of a phase costs, for the check before it starts. */
export interface PhaseFloor {
  /** The phase's fewest requests and how the refusal names it ("the discovery stage"); undefined: not known ahead. */
  readonly smallest: (phase: PhaseDefinition) => SmallestWork | undefined;
  /** Tokens one of those requests is expected to take. */
  readonly each: TokensPerRequest;
}

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
  /** The run's budget and prices; without it the run is not limited, and its ledger is still kept. */
  readonly spending?: RunSpending;
  /** Read-only VS Code language-model tools a skill may name. */
  readonly tools?: ReadOnlyTools;
  readonly onProgress?: (event: WorkflowProgress) => void;
  /** Called with the state after every phase, at every checkpoint and when the run stops: persist it. */
  readonly onSave?: (state: WorkflowRunState) => Promise<void>;
  readonly limits?: Partial<WorkflowLimits>;
  /** A new run: its id (`wf-<uuid>`), goal and feature flags. */
  readonly start?: {
    readonly runId: string;
    readonly goal: string;
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

/** A new run's state, built here (well-formed by its type: it is not parsed again). */
function newState(request: WorkflowRunRequest, start: NonNullable<WorkflowRunRequest['start']>): WorkflowRunState {
  const now = request.clock.now();
  const { workflow } = request;
  return {
    stateVersion: 1,
    runId: start.runId,
    workflowSource: workflow.source.path,
    context: {
      workflow: { name: workflow.name, started_at: now, execution_mode: workflow.executionMode },
      feature: { name: featureNameOf(start.goal), flags: [...(start.flags ?? [])] },
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
      workflow.phases.map(phase => [phase.id, { status: 'pending' as const, subagents_spawned: 0 }]),
    ),
    routeBacks: 0,
    spending: [],
    blackboard: { ...start.blackboard },
    updatedAt: now,
  };
}

/** Thrown inside a phase when its gap check chose `abort`. */
class RunAborted extends Error {}

/**
 * One call of a workflow run (spec 002): each phase's agents in its execution mode and behavior, its skills, its gap
 * check, its checkpoint; then the finalization. It owns the run's working state (`st`, validated on the way in) and
 * saves it after every phase and at every checkpoint, where the run pauses until a later call decides. Known failures come
 * back as outcomes with a resumable state; nothing outside the run's folder is written.
 */
class WorkflowRun {
  private readonly workflow: WorkflowDefinition;
  private readonly limits: WorkflowLimits;
  private readonly st: WorkflowRunState;
  private readonly files: RunFiles;
  private readonly governor: SpendingGovernor;
  private readonly cursor: PhaseCursor;
  private readonly sandbox: ScriptSandbox;
  private readonly onProgress: (event: WorkflowProgress) => void;
  /** The decision a resumed run brings for its pending checkpoint (used once). */
  private decision: CheckpointDecision | undefined;

  constructor(private readonly request: WorkflowRunRequest) {
    const { workflow, start, resume } = request;
    const begun = resume ? WorkflowRunState.parse(resume.state) : start && newState(request, start);
    if (!begun) throw new Error('runWorkflow needs `start` or `resume`.');
    this.workflow = workflow;
    this.limits = { ...DEFAULT_WORKFLOW_LIMITS, ...request.limits };
    this.onProgress = request.onProgress ?? (() => {});
    // A working copy, mutated as the run goes (a resumed state is validated on the way in).
    this.st = structuredClone(begun);
    this.decision = resume?.decision;
    this.files = new RunFiles(this.st.context, request.outputs, this.limits, request.clock);
    // One governor for everything the run sends: agents, stages, skills and scripts; its ledger lives in the state.
    const ledger = new SpendingLedger(this.st.spending);
    this.governor = SpendingGovernor.create({
      limits: request.spending?.limits ?? {},
      prices: request.spending?.prices ?? new PriceBook(),
      // Who a budget stop names, and how the user goes on after raising the limit.
      scope: {
        subject: workflow.name === 'plan' ? 'This /plan run' : `This \`${workflow.name}\` workflow run`,
        limits: { credits: 'runCredits', requests: 'runRequests' },
        work: 'run',
      },
      ...(request.spending?.advice ? { advice: request.spending.advice } : {}),
      ledger,
      spentBefore: runSpent(this.st),
      // The phase last started is the one spending (its checkpoint's condition included).
      step: () => (this.ctx.phases.current ? phaseStep(this.ctx.phases.current) : 'finalization'),
      onSpend: totals => {
        this.st.spending = ledger.toJSON();
        request.spending?.onSpend?.(totals);
      },
    });
    this.cursor = new PhaseCursor(workflow, this.st, this.limits.maxPhasePasses);
    this.sandbox = request.sandbox ?? {
      run: () =>
        Promise.reject(
          new ActionableError(`${workflow.source.path} runs scripts, and no script sandbox is available here.`),
        ),
    };
  }

  private get ctx(): WorkflowContext {
    return this.st.context;
  }

  /**
   * Runs from where the state stands until the run completes, pauses at a checkpoint or stops. A failure anywhere
   * ends the run through `stopped`, which saves the state and says what happened.
   */
  async run(): Promise<WorkflowOutcome> {
    try {
      await this.files.load();
      for (;;) {
        const pending = this.st.pendingCheckpoint;
        if (pending) {
          const outcome = await this.answerCheckpoint(pending);
          if (outcome) return outcome;
          continue;
        }
        const phaseId = this.cursor.next();
        if (phaseId === null) return await this.finalize();
        const phase = this.cursor.phase(phaseId);
        if (!phase)
          throw new ActionableError(
            `The saved run continues at phase \`${phaseId}\`, which ${this.workflow.source.path} no longer has. Start the workflow again.`,
          );
        await this.runPhase(phase);
      }
    } catch (error) {
      return this.stopped(error);
    }
  }

  /** A pending checkpoint: decided by the decision a resumed run brings, or the run pauses there. */
  private async answerCheckpoint(pending: PendingCheckpoint): Promise<WorkflowOutcome | undefined> {
    const choice = this.decision;
    this.decision = undefined;
    if (!choice) return { status: 'paused', state: await this.saveWithMetadata(), checkpoint: pending };
    const decided = this.cursor.decide(pending, choice, this.request.clock.now());
    if ('abort' in decided) return { status: 'aborted', state: await this.saveWithMetadata(), message: decided.abort };
    if (decided.completed) await this.offerCheckpoint(decided.completed);
    // metadata.json says what was decided (and the feedback typed) before the next phase starts.
    await this.saveWithMetadata();
    return undefined;
  }

  /** One pass through a phase: its agents, a route-back, its skills, its gap check, then its checkpoint. */
  private async runPhase(phase: PhaseDefinition): Promise<void> {
    const { st, ctx, cursor } = this;
    throwIfCancelled(this.request.token);
    const spent = cursor.passRefusal(phase.id);
    if (spent) throw new ActionableError(`The ${spent}; start a new run to try it again.`);
    const passes = (ctx.phases.iteration_counts[phase.id] ?? 0) + 1;
    this.requireRoomFor(phase);
    ctx.phases.current = phase.id;
    ctx.phases.iteration_counts[phase.id] = passes;
    const tally = st.phaseTallies[phase.id];
    if (tally) tally.status = 'running';
    this.onProgress({ kind: 'phase-started', phase: phase.id, name: phase.name, iteration: passes });
    // Kept in the state until the phase's work is done, so a phase that fails and is resumed still gets it.
    const feedback = st.feedback?.forPhase === phase.id ? st.feedback.text : undefined;

    const results = await this.runAgents(phase, feedback);
    const routeBack = results.find(result => result.routeBack)?.routeBack;
    if (routeBack) {
      // The one place a route-back is decided: a phase to go back to, route-backs left in the run, and passes left for
      // every phase it reruns; a refused one is said, and the phase goes on.
      const target = cursor.phaseSpawning(routeBack.toType);
      const { maxRouteBacks } = this.limits;
      const reason = !target
        ? `no phase runs \`${routeBack.toType}\``
        : st.routeBacks >= maxRouteBacks
          ? `the run already went back ${st.routeBacks} time${st.routeBacks === 1 ? '' : 's'}, the most one run may (${maxRouteBacks})`
          : cursor.passRefusal(target.id, phase.id);
      if (reason) {
        this.onProgress({ kind: 'route-back-refused', from: phase.id, to: target?.id ?? routeBack.toType, reason });
      } else if (target) {
        this.onProgress({ kind: 'route-back', from: phase.id, to: target.id, rationale: routeBack.rationale });
        st.routeBacks += 1;
        if (tally) tally.status = 'pending';
        cursor.reopenFrom(target.id);
        st.feedback = { forPhase: target.id, text: routeBack.rationale };
        await this.save();
        return;
      }
    }
    await this.runSkills(phase, feedback);
    const escalation = await this.checkGaps(phase);
    if (st.feedback?.forPhase === phase.id) delete st.feedback;
    if (escalation) {
      st.pendingCheckpoint = escalation;
    } else {
      cursor.complete(phase);
      await this.offerCheckpoint(phase);
    }
    // A pending checkpoint pauses the run next, and that pause saves: one copy of the state, not two in a row.
    if (!st.pendingCheckpoint) await this.save();
  }

  /**
   * Before a phase starts (the first of a new run, one after a checkpoint, or one that follows another without a
   * pause): what is left of the run's credit limit must cover the phase's fewest requests. If not, the run stops here
   * with the limit's refusal, before anything is spent on the phase; its state is saved, so Try again continues here.
   */
  private requireRoomFor(phase: PhaseDefinition): void {
    const { spending, model } = this.request;
    const work = spending?.phaseFloor?.smallest(phase);
    if (!spending?.phaseFloor || !work) return;
    const refusal = workDoesNotFit(work, spending.phaseFloor.each, spending.prices.priceOf(model), {
      maxCredits: spending.limits.maxCredits,
      spentCredits: runSpent(this.st).credits ?? 0,
      raise: this.governor.advice.raise('runCredits'),
      goOn: this.governor.advice.goOn('run'),
    });
    if (refusal) throw new LanguageModelFailure('budgetSpent', refusal);
  }

  /** The phase's agents: listed, adaptive, or its main script. Returns the agents' results. */
  private async runAgents(phase: PhaseDefinition, feedback: string | undefined): Promise<AgentResult[]> {
    const { agents } = phase;
    // The phase's own scripts run as its main agent and see the checkpoint's feedback.
    const runMainScript = (scriptSite: ScriptSite, code: string) =>
      runWorkflowScript(this.hostFor(phase.id, 'main'), scriptSite, 'body', code, this.ctx, {
        feedback: feedback ?? null,
      });
    if (agents.behavior === 'main-only') {
      await runMainScript(this.site(phase.id, 'main agent script'), agents.mainScript);
      return [];
    }
    let specs: readonly SubagentSpec[] = agents.mode === 'adaptive' ? agents.always : agents.subagents;
    if (agents.mode === 'adaptive' && agents.adaptiveScript) {
      const scriptSite = this.site(phase.id, 'adaptive script');
      const value = await runMainScript(scriptSite, agents.adaptiveScript);
      specs = [...specs, ...subagentSpecsOf(value, scriptSite, this.request.agents)];
    }
    const results = await this.spawn(phase, specs, agents.behavior === 'sequential', feedback);
    if (phase.mainScript) await runMainScript(this.site(phase.id, 'main agent script'), phase.mainScript);
    return results;
  }

  /**
   * The phase's skills in order (spec 002 "Skills Schema"): a skill names a registered agent type (spawned with
   * `config.args`) or a read-only language-model tool (its result saved as `skills/<name>.md`); `condition` decides
   * whether it runs; `args` are templated (`{{output_dir}}`, `{{phase_id}}`, …).
   */
  private async runSkills(phase: PhaseDefinition, feedback: string | undefined): Promise<void> {
    const { agents, tools, token } = this.request;
    for (const skill of phase.skills) {
      const ran =
        skill.condition === undefined ||
        (await this.condition(phase.id, 'skill', `skill "${skill.name}" condition`, skill.condition));
      this.onProgress({ kind: 'skill', phase: phase.id, name: skill.name, ran });
      if (!ran) continue;
      const args = skill.args.map(arg => fillTemplate(arg, this.templateValues(phase.id)));
      if (agents.has(skill.name)) {
        await this.spawn(phase, [{ type: skill.name, config: { args } }], true, feedback);
      } else if (tools?.names().includes(skill.name)) {
        const text = await tools.invoke(skill.name, args, token);
        await this.files.write(phase.id, 'skill', `skills/${skill.name}.md`, text);
      } else {
        const known = [...agents.keys(), ...(tools?.names() ?? [])].sort();
        throw new ActionableError(
          `Phase \`${phase.id}\` invokes the skill \`${skill.name}\`, which is neither an agent type nor a read-only tool here. Known skills: ${known.join(', ') || 'none'}.`,
        );
      }
    }
  }

  /** Spawns `specs` in one pass of `phase`, in parallel (bounded) or one after another. */
  private async spawn(
    phase: PhaseDefinition,
    specs: readonly SubagentSpec[],
    sequential: boolean,
    feedback: string | undefined,
  ): Promise<AgentResult[]> {
    const { limits } = this;
    if (specs.length > limits.maxSubagentsPerPhase) {
      throw new ActionableError(
        `${this.workflow.source.path}, phase \`${phase.id}\` asked for ${specs.length} subagents; a phase may spawn at most ${limits.maxSubagentsPerPhase} per pass. Spawn fewer, or split the work over phases.`,
      );
    }
    const { token } = this.request;
    if (sequential) {
      const results: AgentResult[] = [];
      for (const [index, spec] of specs.entries()) {
        throwIfCancelled(token);
        results.push(await this.runAgent(phase, specs, spec, index, token, feedback));
      }
      return results;
    }
    return mapBounded(specs, limits.concurrency, token, (spec, agentToken, index) =>
      this.runAgent(phase, specs, spec, index, agentToken, feedback),
    );
  }

  /** One subagent: counted, run with its model under the governor, its audit and files recorded. */
  private async runAgent(
    phase: PhaseDefinition,
    specs: readonly SubagentSpec[],
    spec: SubagentSpec,
    index: number,
    agentToken: CancellationSignal,
    feedback: string | undefined,
  ): Promise<AgentResult> {
    const { request, st, ctx } = this;
    const type = request.agents.get(spec.type);
    if (!type)
      throw new ActionableError(
        `${this.workflow.source.path}, phase \`${phase.id}\`: there is no subagent type \`${spec.type}\`. Known types: ${[...request.agents.keys()].sort().join(', ')}.`,
      );
    this.onProgress({ kind: 'agent-started', phase: phase.id, type: spec.type });
    ctx.subagents_spawned += 1;
    const tally = st.phaseTallies[phase.id];
    if (tally) tally.subagents_spawned += 1;
    const model = this.governor.model(
      typeof spec.config.model === 'string' && request.modelFor
        ? await request.modelFor(spec.config.model)
        : request.model,
      spec.type,
    );
    const result = await type.run({
      spec,
      phase,
      workflowName: this.workflow.name,
      context: structuredClone(ctx),
      ...(feedback ? { feedback } : {}),
      blackboard: { get: key => st.blackboard[key], set: (key, value) => void (st.blackboard[key] = value) },
      model,
      reader: request.reader,
      runFiles: this.files.contents,
      token: agentToken,
    });
    if (result.audit && tally)
      tally.audit = {
        checked: (tally.audit?.checked ?? 0) + result.audit.checked,
        findings: [...(tally.audit?.findings ?? []), ...result.audit.findings],
      };
    const configured = spec.config.output_path;
    // Two agents of one type in one pass would write the same default file: each gets its number.
    const sameType = specs.filter(other => other.type === spec.type);
    const ordinal =
      sameType.length > 1 ? specs.slice(0, index + 1).filter(other => other.type === spec.type).length : undefined;
    for (const [fileIndex, file] of result.files.entries()) {
      const path =
        fileIndex === 0 && typeof configured === 'string' && configured
          ? fillTemplate(configured, this.templateValues(phase.id))
          : ordinal === undefined
            ? file.path
            : file.path.replace(/(\.[A-Za-z0-9]+)?$/, extension => `-${ordinal}${extension}`);
      await this.files.write(phase.id, spec.type, path || `${phase.id}/${spec.type}-${index + 1}.md`, file.content);
    }
    this.onProgress({ kind: 'agent-finished', phase: phase.id, type: spec.type, summary: result.summary });
    return result;
  }

  /** Gap check after the agents: retries and additions within `max_iterations`; an escalation to return. */
  private async checkGaps(phase: PhaseDefinition): Promise<PendingCheckpoint | undefined> {
    const gapCheck = phase.gapCheck;
    if (!gapCheck) return undefined;
    for (let iteration = 1; ; iteration++) {
      const verdict = await evaluateGapCheck(
        gapCheck,
        this.hostFor(phase.id, 'gap-check'),
        { source: this.workflow.source.path, phase: phase.id },
        this.ctx,
        this.request.agents,
      );
      const { status, gaps } = verdict;
      const incomplete = verdict.status === 'incomplete' ? verdict : undefined;
      this.onProgress({ kind: 'gap-check', phase: phase.id, iteration, status, gaps });
      const gaveUp =
        iteration >= gapCheck.maxIterations && (verdict.action === 'retry' || verdict.action === 'spawn_additional');
      const action = gaveUp ? 'gave_up' : verdict.action;
      const added = action === 'spawn_additional' ? (incomplete?.additionalAgents ?? []) : [];
      this.ctx.gap_checks.push({
        phase: phase.id,
        iteration,
        status,
        attempts: iteration,
        gaps: [...gaps],
        action_taken: action,
        agents_spawned: added.map(agent => agent.type),
        timestamp: this.request.clock.now(),
      });
      const gapsText = `A check of this phase found gaps; address them:\n${gaps.map(gap => `- ${gap}`).join('\n')}`;
      switch (action) {
        case 'none':
          return undefined;
        case 'abort':
          throw new RunAborted(
            incomplete?.message ??
              `The gap check of phase \`${phase.id}\` stopped the run: ${gaps.join('; ') || 'no reason given'}.`,
          );
        case 'escalate':
          return escalationOf(
            phase,
            incomplete?.message ?? `The gap check of ${phase.name} found gaps. Continue anyway?`,
            gaps,
          );
        case 'gave_up':
          return escalationOf(
            phase,
            `${phase.name} still has gaps after ${gapCheck.maxIterations} attempts (its \`max_iterations\`). Continue anyway?`,
            gaps,
          );
        case 'retry':
          await this.runAgents(phase, gapsText);
          break;
        case 'spawn_additional':
          await this.spawn(phase, added, false, gapsText);
          break;
      }
    }
  }

  /** A phase completed: said, then its checkpoint (if its condition holds), or straight on. */
  private async offerCheckpoint(phase: PhaseDefinition): Promise<void> {
    this.onProgress({ kind: 'phase-completed', phase: phase.id, name: phase.name });
    const checkpoint = phase.checkpoint;
    if (!checkpoint) return;
    if (checkpoint.kind === 'custom' && checkpoint.condition) {
      if (!(await this.condition(phase.id, 'checkpoint', 'checkpoint condition', checkpoint.condition))) return;
    }
    this.st.pendingCheckpoint = pendingCheckpointOf(
      this.workflow,
      phase,
      checkpoint,
      this.templateValues(phase.id),
      this.ctx.skip_phases,
    );
  }

  /** Every phase ran: the final document (once), and the run is complete. */
  private async finalize(): Promise<WorkflowOutcome> {
    const { st, ctx, request } = this;
    const finalization = this.workflow.finalization;
    if (finalization && !st.finalPlan) {
      const values = this.templateValues('finalization');
      const templatePath = fillTemplate(finalization.template, values);
      // The run's own files first (a template an earlier phase wrote), then the workspace's.
      const template =
        this.files.contents.get(templatePath) ??
        (await request.reader.readRange(templatePath, 1, 5_000, request.token))?.text;
      if (template === undefined) {
        throw new ActionableError(
          `${this.workflow.source.path}: the finalization template \`${templatePath}\` does not exist. Create it (a Markdown file with placeholders such as {{goal}} and {{deliverables}}) or fix \`finalization.template\`.`,
        );
      }
      const document = renderFinalDocument(
        template,
        values,
        ctx,
        this.files.contents,
        request.clock.now().slice(0, 10),
      );
      st.finalPlan = await this.files.write(
        'finalization',
        'finalization',
        fillTemplate(finalization.output, values),
        document,
      );
    }
    st.completedAt = request.clock.now();
    ctx.phases.current = null;
    return { status: 'completed', state: await this.saveWithMetadata() };
  }

  /** The run stopped on an error: the running phase's tally says so, the state is saved, the outcome says why. */
  private async stopped(error: unknown): Promise<WorkflowOutcome> {
    const { current } = this.ctx.phases;
    const tally = current ? this.st.phaseTallies[current] : undefined;
    const cancelled =
      error instanceof CancelledError || (error instanceof LanguageModelFailure && error.kind === 'cancelled');
    if (tally && tally.status === 'running') tally.status = cancelled ? 'pending' : 'failed';
    const state = await this.save();
    await this.writeMetadata().catch(() => undefined);
    if (cancelled) return { status: 'cancelled', state };
    if (error instanceof RunAborted) return { status: 'aborted', state, message: error.message };
    if (error instanceof NeedsUserInput)
      return { status: 'needs_user', state, question: error.question, reason: error.reason };
    if (error instanceof LanguageModelFailure || error instanceof ActionableError)
      return { status: 'failed', state, message: error.message, error };
    throw error;
  }

  // The state is validated on the way in (a resumed state); what the engine builds is already well-formed, so a
  // save is a plain copy (parsing the stage records on every save cost the pipeline ~0.1 of its critical path).
  private async save(): Promise<WorkflowRunState> {
    this.st.updatedAt = this.request.clock.now();
    const copy = structuredClone(this.st);
    await this.request.onSave?.(copy);
    return copy;
  }

  private async saveWithMetadata(): Promise<WorkflowRunState> {
    const state = await this.save();
    await this.writeMetadata();
    return state;
  }

  private async writeMetadata(): Promise<void> {
    const metadata = workflowMetadataOf(this.workflow, this.st, this.request.clock.now());
    await this.request.outputs.write('metadata.json', `${JSON.stringify(metadata, null, 2)}\n`);
  }

  private templateValues(phase: string): Record<string, string> {
    const { ctx } = this;
    return {
      output_dir: ctx.output_dir,
      phase_id: phase,
      workflow_name: this.workflow.name,
      goal: ctx.goal,
      feature_name: ctx.feature.name,
    };
  }

  private site(phase: string, role: string): ScriptSite {
    return { source: this.workflow.source.path, phase, role };
  }

  /** A condition of `phase` (a skill's, its checkpoint's), run as a script of `subagent`. */
  private condition(phase: string, subagent: string, role: string, code: string): Promise<boolean> {
    return evaluateCondition(this.hostFor(phase, subagent), this.site(phase, role), code, this.ctx);
  }

  /** What a script of `phase` runs with: the run's governor, its files and its reader. */
  private hostFor(phase: string, subagent: string): ScriptHost {
    const { request } = this;
    return {
      sandbox: this.sandbox,
      model: request.model,
      spending: this.governor,
      ...(request.spending?.script ? { limits: request.spending.script } : {}),
      reader: request.reader,
      token: request.token,
      outputFolder: this.ctx.output_dir,
      writeFile: (path, content) => this.files.write(phase, subagent, path, content),
      contents: () => this.files.contents,
    };
  }
}

/**
 * Runs (or resumes) a workflow (spec 002) until it completes, pauses at a checkpoint or stops; every outcome carries
 * the state to resume from.
 */
export function runWorkflow(request: WorkflowRunRequest): Promise<WorkflowOutcome> {
  return new WorkflowRun(request).run();
}
