import * as vscode from 'vscode';
import { TOOL } from '../../core/council/toolSession';
import type { PlanHandler } from '../deepWork/planHandler';
import type { DeepWorkDeps } from '../deepWork/deepWorkTurn';
import type { WorkflowHandler } from '../deepWork/workflowHandler';
import type { CouncilToolEnvironment } from './councilToolRun';
import { deliberateTool } from './deliberateTool';
import { openTool } from './openTool';
import { planTool, workflowTool } from './deepWorkTools';

/**
 * Council's doors for agents (any harness: Local, the Copilot harness, custom agents, skills): four tools, each a thin
 * entry to the same core, session store, run store and spending governor as `@council`. Names match package.json.
 */
export function registerCouncilTools(
  env: CouncilToolEnvironment,
  deepWork: { readonly deps: DeepWorkDeps; readonly plan: PlanHandler; readonly workflow: WorkflowHandler },
): vscode.Disposable[] {
  return [
    vscode.lm.registerTool(TOOL.open, openTool(env)),
    vscode.lm.registerTool(TOOL.deliberate, deliberateTool(env)),
    vscode.lm.registerTool(TOOL.plan, planTool(env, deepWork.deps, deepWork.plan)),
    vscode.lm.registerTool(TOOL.workflow, workflowTool(env, deepWork.deps, deepWork.workflow)),
  ];
}
