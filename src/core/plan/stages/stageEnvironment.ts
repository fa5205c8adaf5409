import type { Clock } from '../../clock';
import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { PromptContributorRegistry } from '../contributors/registry';
import type { WorkspaceIndex } from '../../workspace/workspaceIndex';
import type { WorkspaceReader } from '../../workspace/workspaceReader';
import type { ContextIdIssuer } from './contextIdIssuer';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';
import type { LoopRecovery } from './loopRecovery';
import type { ReconstructedContext } from '../contextManager/routing';
import type { PipelineOptions } from './pipelineOptions';
import type { ProgressListener } from './progressEvents';

/** Everything a stage needs from the run: ports, bounds and the run's shared bookkeeping. */
export interface StageEnvironment {
  readonly goal: string;
  readonly constraints: readonly string[];
  /** Context id of the run itself (the `orchestrator`), the root of every context chain. */
  readonly rootContextId: string;
  readonly model: LanguageModel;
  readonly reader: WorkspaceReader;
  readonly index: WorkspaceIndex;
  /** The one way a stage runs an agent: recorded on the run's history, with loop recovery. */
  readonly agents: LoopRecovery;
  readonly clock: Clock;
  readonly token: CancellationSignal;
  readonly contributors: PromptContributorRegistry;
  readonly contextIds: ContextIdIssuer;
  readonly options: PipelineOptions;
  /**
   * The phase's feedback, shown to every agent of the stage: the user's (typed with a checkpoint choice), a later
   * stage's route-back, or a gap check's gaps.
   */
  readonly feedback?: string;
  /** The context the context manager routed to this stage's agents (a `proceed` or a route-back), for their first round. */
  readonly guidance?: ReconstructedContext;
  /** What the handoff audit finds in this pass (recorded with the pass, shown in the report and metadata.json). */
  readonly audit: AgentAudit;
  readonly onProgress: ProgressListener;
}
