import type { FixtureApi, ScriptedReply, ScriptedRequest } from './fixture/src/api';
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

/** The `/plan` agent's structured tool `request` offers, if it is one. */
function routeOf(request: ScriptedRequest): string | undefined {
  return request.tools.map(tool => tool.name).find(name => name in ROUTES);
}

/** The pipeline's reply to `route`'s request. */
function routeReply(route: string, request: ScriptedRequest): ScriptedReply {
  const text = request.messages.map(m => m.text).join('\n');
  return { toolCall: { name: route, input: ROUTES[route]?.(text) as object } };
}

/** The pipeline's reply to `request` if it is a `/plan` agent's, else undefined. */
export function pipelineReply(request: ScriptedRequest): ScriptedReply | undefined {
  const route = routeOf(request);
  return route ? routeReply(route, request) : undefined;
}

/** Plays the pipeline: agents answer their structured tool; exploration stops at once. `override` may answer a route. */
export function playPipeline(
  api: FixtureApi,
  override: (route: string, request: ScriptedRequest) => ScriptedReply | undefined = () => undefined,
): void {
  api.setResponder(request => {
    const route = routeOf(request);
    if (!route) return 'I know enough.';
    return override(route, request) ?? routeReply(route, request);
  });
}
