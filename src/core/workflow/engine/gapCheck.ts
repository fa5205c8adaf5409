import type { GapAction, GapCheckDefinition, SubagentSpec } from '../definition/workflowDefinition';
import { GAP_ACTIONS } from '../definition/workflowSchema';
import type { JsonValue } from '../sandbox/scriptSandbox';
import type { AgentTypeRegistry } from './agentTypes';
import type { WorkflowContext } from './workflowContext';
import {
  evaluateCondition,
  runWorkflowScript,
  WorkflowScriptError,
  type ScriptHost,
  type ScriptSite,
} from './workflowScripts';

/** What one gap-check evaluation found, and what to do about it (nothing when complete). */
export type GapVerdict =
  | { readonly status: 'complete'; readonly gaps: readonly string[]; readonly action: 'none' }
  | {
      readonly status: 'incomplete';
      readonly gaps: readonly string[];
      readonly action: GapAction;
      readonly additionalAgents: readonly SubagentSpec[];
      readonly message?: string;
    };

function isRecord(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A script returned a value its role cannot use: the workflow file's to fix. */
function wrongValue(site: ScriptSite, message: string): WorkflowScriptError {
  return new WorkflowScriptError(site, { kind: 'result', message });
}

/** The subagent specs a script returned (spec 002 "Script Return Values"); anything else is the script's error. */
export function subagentSpecsOf(value: JsonValue, site: ScriptSite, knownTypes: AgentTypeRegistry): SubagentSpec[] {
  const list = value === null ? [] : value;
  if (!Array.isArray(list))
    throw wrongValue(site, 'It must return an array of subagents such as `[{ type: "code-scout", config: {} }]`.');
  return list.map((item, index) => {
    if (!isRecord(item) || typeof item.type !== 'string') {
      throw wrongValue(
        site,
        `Item ${index} of what it returned is not a subagent: each needs a \`type\` string (and an optional \`config\` object).`,
      );
    }
    if (!knownTypes.has(item.type)) {
      throw wrongValue(
        site,
        `It returned the unknown subagent type \`${item.type}\`; known types: ${[...knownTypes.keys()].sort().join(', ')}.`,
      );
    }
    const config = item.config === undefined ? {} : item.config;
    if (!isRecord(config)) throw wrongValue(site, `The \`config\` of item ${index} must be an object.`);
    return { type: item.type, config: { ...config } };
  });
}

/** Runs a gap check's script or criteria once. */
export async function evaluateGapCheck(
  gapCheck: GapCheckDefinition,
  host: ScriptHost,
  site: Omit<ScriptSite, 'role'>,
  context: WorkflowContext,
  knownTypes: AgentTypeRegistry,
): Promise<GapVerdict> {
  if (gapCheck.kind === 'criteria') {
    const failed: string[] = [];
    for (const criterion of gapCheck.criteria) {
      const passed = await evaluateCondition(
        host,
        { ...site, role: `gap check criterion "${criterion.name}"` },
        criterion.check,
        context,
      );
      if (!passed) failed.push(criterion.name);
    }
    if (failed.length === 0) return { status: 'complete', gaps: [], action: 'none' };
    return { status: 'incomplete', gaps: failed, ...gapCheck.onFailure };
  }
  const scriptSite = { ...site, role: 'gap check script' };
  const value = await runWorkflowScript(host, scriptSite, 'body', gapCheck.script, context);
  if (!isRecord(value) || (value.status !== 'complete' && value.status !== 'incomplete')) {
    throw wrongValue(
      scriptSite,
      "It must return `{ status: 'complete' }` or `{ status: 'incomplete', gaps: [...], action: 'retry' | 'spawn_additional' | 'escalate' | 'abort' }`.",
    );
  }
  const gaps = Array.isArray(value.gaps)
    ? value.gaps.map(gap => (typeof gap === 'string' ? gap : JSON.stringify(gap)))
    : [];
  if (value.status === 'complete') return { status: 'complete', gaps, action: 'none' };
  const action = (typeof value.action === 'string' ? value.action : 'retry') as GapAction;
  if (!GAP_ACTIONS.includes(action)) {
    throw wrongValue(
      scriptSite,
      `It returned the action \`${String(value.action)}\`; use one of ${GAP_ACTIONS.join(', ')}.`,
    );
  }
  const additionalAgents =
    action === 'spawn_additional'
      ? subagentSpecsOf(value.additionalAgents ?? value.additional_agents ?? [], scriptSite, knownTypes)
      : [];
  if (action === 'spawn_additional' && additionalAgents.length === 0) {
    throw wrongValue(scriptSite, 'It chose `spawn_additional` but returned no `additionalAgents`.');
  }
  return {
    status: 'incomplete',
    gaps,
    action,
    additionalAgents,
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
  };
}
