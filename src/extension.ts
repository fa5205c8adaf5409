import * as vscode from 'vscode';
import { registerCouncilCommands } from './vscode/commands/councilCommands';
import { registerCheckModels } from './vscode/commands/checkModels';
import { registerDamagedSessionExport } from './vscode/chat/damagedSession';
import { councilHandler, PARTICIPANT_ID } from './vscode/councilParticipant';
import { registerCouncilTools } from './vscode/tools/registerTools';
import { shownProgress } from './vscode/tools/toolProgress';
import { feedbackLine } from './vscode/storage/feedbackLog';
import { councilFollowups } from './vscode/chat/followups';
import { CouncilLog } from './vscode/log';
import { registerDecisionCommands } from './vscode/decisions/decisionCommands';
import { registerPersonaCommands } from './vscode/personas/personaCommands';
import { registerPlanCommands } from './vscode/deepWork/planCommands';
import { createPlanHandler } from './vscode/deepWork/planHandler';
import { RunStore } from './vscode/deepWork/runStore';
import { DEEP_WORK_AGENT_TYPES } from './core/deepWork/runDeepWork';
import { QuickJsSandbox } from './core/workflow/sandbox/quickJsSandbox';
import type { ScriptSandbox } from './core/workflow/sandbox/scriptSandbox';
import { createWorkflowHandler } from './vscode/deepWork/workflowHandler';
import { deepWorkFollowups } from './vscode/deepWork/deepWorkResult';
import { loadWorkflows } from './vscode/deepWork/workflowCatalog';
import { loadSandboxWasm } from './vscode/deepWork/sandboxWasm';
import { registerWorkflowCommands } from './vscode/deepWork/workflowCommands';
import { SessionStore } from './vscode/storage/sessionStore';

/** The extension's public API, used by its integration tests to inspect stored sessions. */
export interface CouncilApi {
  readonly store: SessionStore;
  /** How long `activate` took, in milliseconds (also in the Council log). */
  readonly activationMs: number;
  /** Stored `/plan` and `/workflow` runs. */
  readonly runs: RunStore;
  /** The progress lines Council's tools showed (the last 50), with when: for the tests of what a tool user sees. */
  readonly toolProgress: readonly { readonly at: number; readonly message: string }[];
}

/**
 * The web extension host's entry: workflow scripts run in QuickJS on the extension host's thread (a web worker;
 * the engine's interrupt and the built-in caps bound them). The Node host's entry is src/node/extension.ts.
 */
export function activate(context: vscode.ExtensionContext): CouncilApi {
  return activateCouncil(context, new QuickJsSandbox(loadSandboxWasm(context.extensionUri)));
}

/** Builds the pieces and registers them; nothing else lives here (activation stays cheap: no I/O, no model calls). */
export function activateCouncil(context: vscode.ExtensionContext, sandbox: ScriptSandbox): CouncilApi {
  const started = performance.now();
  const log = CouncilLog.create();
  const store = new SessionStore(context.workspaceState);
  const runs = new RunStore(context.workspaceState);
  // The script sandbox's engine is read and compiled only when a workflow runs a script.
  const deepWork = {
    runs,
    log,
    catalog: () => loadWorkflows(context.extensionUri, DEEP_WORK_AGENT_TYPES),
    sandbox,
  };
  const plan = createPlanHandler(deepWork);
  const workflow = createWorkflowHandler(deepWork);
  const participant = vscode.chat.createChatParticipant(
    PARTICIPANT_ID,
    councilHandler({ context, store, log, plan, workflow, models: context.globalState }),
  );
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'council.png');
  participant.followupProvider = {
    provideFollowups: result => deepWorkFollowups(result) ?? councilFollowups(result),
  };
  // Which result a person rated, so the log can be read next to the session it concerns.
  context.subscriptions.push(
    participant.onDidReceiveFeedback(feedback =>
      log.info(
        feedbackLine(
          feedback.kind === vscode.ChatResultFeedbackKind.Helpful ? 'helpful' : 'unhelpful',
          feedback.result.metadata,
        ),
      ),
    ),
  );
  registerPersonaCommands(context);
  context.subscriptions.push(
    log,
    participant,
    ...registerCouncilCommands(context, store),
    registerCheckModels(context),
    registerDamagedSessionExport(store),
    ...registerPlanCommands(runs),
    ...registerDecisionCommands(),
    ...registerWorkflowCommands(deepWork.catalog),
  );
  context.subscriptions.push(
    ...registerCouncilTools({ context, store, log, models: context.globalState }, { deps: deepWork, plan, workflow }),
  );
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  return { store, activationMs, runs, toolProgress: shownProgress };
}

/** Nothing to clean up beyond `context.subscriptions`. */
export function deactivate(): void {}
