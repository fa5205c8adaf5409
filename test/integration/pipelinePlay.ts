import type { ScriptedReply, ScriptedRequest } from './fixture/src/api';
import {
  discoveryCollectorDraft,
  discoveryReportDraft,
  planningAgentDraft,
  planningCollectorDraft,
  ticketAgentDraft,
  ticketCollectorDraft,
} from '../support/pipelineScript';

const resultIds = (text: string): string[] => [
  ...new Set([...text.matchAll(/resultId (wf-[^\s)]+)/g)].map(m => m[1] ?? '')),
];

/** The scripted pipeline (test/support/pipelineScript.ts) keyed by the structured-output tool each agent is offered. */
const ROUTES: Record<string, (text: string) => unknown> = {
  discovery_report: () => discoveryReportDraft(),
  discovery_collector_result: text => discoveryCollectorDraft(resultIds(text)),
  planning_agent_result: text => planningAgentDraft(/ids "([\w-]+)1"/.exec(text)?.[1] ?? 'P1-T'),
  planning_collector_result: text => planningCollectorDraft(resultIds(text)),
  ticket_agent_result: text => ticketAgentDraft(/your ticket is ([\w-]+)\./.exec(text)?.[1] ?? 'T-1'),
  ticket_collector_result: text => ticketCollectorDraft(resultIds(text)),
};

/** The pipeline's reply to `request` if it is a `/plan` agent's, else undefined (exploration stops at once). */
export function pipelineReply(request: ScriptedRequest): ScriptedReply | undefined {
  const route = request.tools.map(tool => tool.name).find(name => name in ROUTES);
  if (!route) return undefined;
  const text = request.messages.map(m => m.text).join('\n');
  return { toolCall: { name: route, input: ROUTES[route]?.(text) as object } };
}
