import { DEFAULT_EXPLORATION_LIMITS } from '../workspace/explorationLoop';
import type { IdSource } from '../clock';
import { BlackboardHistory } from './history/blackboardHistory';
import { PIPELINE_STAGES, type PipelineStage } from './schemas/agentType';
import { ContextIdIssuer } from './stages/contextIdIssuer';
import { discoveryStage } from './stages/discovery/discoveryStage';
import { LoopRecovery } from './stages/loopRecovery';
import { DEFAULT_PIPELINE_OPTIONS, TICKET_EXPLORATION } from './stages/pipelineOptions';
import { planningStage } from './stages/planning/planningStage';
import type { StageEnvironment } from './stages/stageEnvironment';
import { ticketStage } from './stages/tickets/ticketStage';
import type { WorkspaceIndex } from '../workspace/workspaceIndex';
import type { RequestSpan } from '../llm/spending/forecastCost';
import { REPETITION_BOUNDS } from '../workflow/engine/repetitionBounds';
import type { AgentCall, AgentResult, AgentType } from '../workflow/engine/agentTypes';
import type { AgentAudit } from '../workflow/engine/workflowRunState';
import { newBoard, PIPELINE_BOARD_KEY, STAGE_TYPES, type PipelineBoard } from './pipelineBoard';

/** What the stages need for one call of a plan run (not saved: rebuilt on every resume). */
type PipelineRuntime = Pick<StageEnvironment, 'clock' | 'contributors' | 'options' | 'onProgress'> & {
  readonly runId: string;
  readonly ids: IdSource;
  /** The workspace's files (what may be read and cited), listed when a stage first needs them, once per call. */
  readonly workspace: () => Promise<WorkspaceIndex>;
};

/** What a stage's phase says it made. */
function summaryOf(record: NonNullable<PipelineBoard['stages'][PipelineStage]>): string {
  if (record.stage === 'discovery')
    return `${record.result.recommendations.length} recommendations from ${record.agentsSpawned} discovery agents.`;
  if (record.stage === 'planning') return `${record.result.finalizedTickets.length} tickets.`;
  return `${record.agentResults.length} ticket proposals.`;
}

/** One pipeline stage (orchestrator, parallel agents, collector) as a workflow subagent type. */
function stageType(stage: PipelineStage, runtime: PipelineRuntime): AgentType {
  return {
    type: STAGE_TYPES[stage],
    async run(call: AgentCall): Promise<AgentResult> {
      // A `/plan` run starts with its board; any other workflow's run gets one when its first pipeline stage runs.
      const { handoff, ...stored } =
        (call.blackboard.get(PIPELINE_BOARD_KEY) as PipelineBoard | undefined) ??
        newBoard(runtime.runId, runtime.clock, call.context.goal, []);
      // A stage run again (a redo, after a route-back) drops its record and those after it; the engine counts the pass.
      // A context routed to this stage goes to its agents; any stage that runs consumes it.
      const earlier: readonly string[] = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(stage));
      let board: PipelineBoard = {
        ...stored,
        stages: Object.fromEntries(Object.entries(stored.stages).filter(([s]) => earlier.includes(s))),
      };
      const guidance = handoff?.stage === stage ? handoff.context : undefined;
      const contextIds = new ContextIdIssuer(runtime.runId, runtime.clock, board.nextSequence);
      const audit: AgentAudit = { checked: 0, findings: [] };
      const { workspace, ...shared } = runtime;
      const run = {
        ...shared,
        index: await workspace(),
        goal: board.goal,
        constraints: board.constraints,
        rootContextId: board.rootContextId,
        model: call.model,
        reader: call.reader,
        token: call.token,
        contextIds,
        audit,
        ...(call.feedback ? { feedback: call.feedback } : {}),
        ...(guidance ? { guidance } : {}),
      };
      const history = new BlackboardHistory(call.blackboard, runtime.ids);
      const recovery = new LoopRecovery(history, run);
      const env: StageEnvironment = { ...run, agents: recovery };
      const keep = (changes: Partial<PipelineBoard>): void => {
        board = { ...board, ...changes, nextSequence: contextIds.nextSequence };
        call.blackboard.set(PIPELINE_BOARD_KEY, board);
      };
      let record;
      try {
        if (stage === 'discovery') record = await discoveryStage(env);
        else if (stage === 'planning') record = await planningStage(env, board.stages);
        else record = await ticketStage(env, board.stages);
      } catch (error) {
        // Only the id sequence moves on, so ids are never reused by the next attempt; a context routed here waits for it.
        keep(handoff ? { handoff } : {});
        throw error;
      }
      // The record is kept either way: the engine decides a route-back (a refused one goes on from this result; an
      // accepted one reruns the target stage, which drops this record). The context manager's route to another
      // stage's agents leaves its context on the board for that stage; to an earlier stage it is a route-back too,
      // unless the collector decided one itself (its decision is the later one).
      const { redirect } = recovery;
      keep({
        stages: { ...board.stages, [stage]: record },
        ...(redirect ? { handoff: { stage: redirect.stage, context: redirect.context } } : {}),
      });
      const { decision } = record.result;
      const back =
        decision.kind === 'route_back'
          ? { toType: STAGE_TYPES[decision.target], rationale: decision.rationale }
          : redirect && earlier.includes(redirect.stage)
            ? { toType: STAGE_TYPES[redirect.stage], rationale: redirect.reason }
            : undefined;
      return { summary: summaryOf(record), files: [], ...(back ? { routeBack: back } : {}), audit };
    },
  };
}

/** The three pipeline stages as subagent types (`discovery-stage`, `planning-stage`, `ticket-stage`). */
export function pipelineStageTypes(runtime: PipelineRuntime): AgentType[] {
  return PIPELINE_STAGES.map(stage => stageType(stage, runtime));
}

/** What a stage's phase will take, as far as the run tells before the stage starts. */
export interface StageForecast {
  /** Its agents, once known (planning's follow discovery's recommendations; the ticket stage's, planning's tickets). */
  readonly agents?: number;
  /**
   * Its requests: fewest (one collector round, no rerun) to most (every collector round the loop threshold allows,
   * each rerunning all its agents, and one loop recovery). Undefined until the stage before it has run.
   */
  readonly requests?: RequestSpan;
  /** What it will probably take: each agent's usual requests and one collector round. */
  readonly expected: number;
  /** Why `requests` is not known yet, in words. */
  readonly pending?: string;
}

/** A span of requests in words: `3` or `2–5`. */
const spanText = (r: RequestSpan): string => (r.fewest === r.most ? `${r.most}` : `${r.fewest}–${r.most}`);

/**
 * Requests one call of the context manager takes (a rebuilt context, or the routing of a `proceed`): its investigation
 * rounds and its decision (runContextManager's default limits: 5 rounds, then one routing request); a rebuilt
 * context adds the agent's run again.
 */
const LOOP_RECOVERY_REQUESTS = 6;

/**
 * What an exploring agent usually takes: a round of reads, a round that says it knows enough, its report (never more
 * than its bound).
 */
const USUAL_EXPLORING_REQUESTS = 3;

/**
 * What the stage type `type` will take in its phase, from the bounds the stages run by: per agent, the exploration
 * rounds it may take (at least one) and its report; one collector per round, at most `loopThreshold + 1` rounds (see
 * runStage), and one loop recovery. `board` is the run's so far (none: a new run). Undefined for a type that is not a
 * stage. The expected figure takes each agent's usual requests and one round; agents not known yet are as many as
 * the stage before will probably give (one recommendation per discovery agent, one ticket per planning agent).
 */
export function stageForecast(type: string, board: PipelineBoard | undefined): StageForecast | undefined {
  const options = DEFAULT_PIPELINE_OPTIONS;
  const stage = PIPELINE_STAGES.find(candidate => STAGE_TYPES[candidate] === type);
  if (!stage) return undefined;
  const each: RequestSpan =
    stage === 'discovery'
      ? { fewest: 2, most: DEFAULT_EXPLORATION_LIMITS.maxRounds + 1 }
      : stage === 'planning'
        ? { fewest: 1, most: 1 }
        : { fewest: 2, most: TICKET_EXPLORATION.maxRounds + 1 };
  const usual = stage === 'planning' ? 1 : Math.min(each.most, USUAL_EXPLORING_REQUESTS);
  // Per pass (REPETITION_BOUNDS): the collector rounds its reruns allow, each rebuilt context (the context manager's
  // requests and the agent once more) and, for a stage with one after it, the context manager's routing of a
  // `proceed`. A route-back's second pass is counted by the workflow forecast, once per run.
  const rounds = REPETITION_BOUNDS.reruns + 1;
  const proceed = PIPELINE_STAGES.indexOf(stage) < PIPELINE_STAGES.length - 1 ? LOOP_RECOVERY_REQUESTS : 0;
  const cost = (fewest: number, most: number): RequestSpan => ({
    fewest: fewest * each.fewest + 1,
    most:
      rounds * (most * each.most + 1) +
      REPETITION_BOUNDS.reconstructions * (LOOP_RECOVERY_REQUESTS + each.most) +
      proceed,
  });
  const recommendations = board?.stages.discovery?.result.recommendations.length;
  const tickets = board?.stages.planning?.result.finalizedTickets.length;
  // Planning runs one agent per recommendation (within the cap); the ticket stage one per ticket.
  const planningAgents = Math.max(1, Math.min(options.maxAgentsPerStage, recommendations ?? options.maxAgentsPerStage));
  const known = stage === 'planning' ? recommendations : stage === 'tickets' ? tickets : undefined;
  const likely = known === undefined ? (stage === 'tickets' ? planningAgents : options.maxAgentsPerStage) : known;
  const agents = stage === 'planning' ? planningAgents : likely;
  const expected = agents * usual + 1;
  if (stage === 'tickets' && tickets === undefined)
    return {
      expected,
      pending: `one agent per ticket planning makes (${spanText(each)} requests each, plus 1)`,
    };
  if (known === undefined) return { expected, requests: cost(1, options.maxAgentsPerStage) };
  return { agents, expected, requests: cost(agents, agents) };
}
