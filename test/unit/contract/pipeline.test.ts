import * as assert from 'node:assert/strict';
import type { LanguageModel, ModelRequest } from '../../../src/core/llm/languageModel';
import {
  acceptance,
  describeConformance,
  measureConformance,
  type ConformanceFigures,
} from '../../support/conformance';
import {
  discoveryCollectorDraft,
  fixtureReader,
  pipelineModel,
  requestText,
  resultIdsIn,
} from '../../support/pipelineScript';
import { requestedName, valueReply, type Responder, type Route, type ScriptedModel } from '../../support/scriptedModel';
import { schemaFollowingResponder, type SchemaFollowingOptions } from '../../support/schemaFollowingModel';
import { runFixture } from '../core/plan/stages/harness';

// Every structured request /plan makes is answered, one kind at a time, by a model that knows only the JSON
// Schema sent; every other request of the run is played by the pipeline script. A reply that is a valid
// instance of what we send must pass the handoff layers (SCH/SEM/REF) without a repair round, and no run may
// end in a failure or a rejection.

/** Ticket changes nest six levels deep (proposedChanges[].edit.replacements[].startLine); the generator must fill them in. */
const DEPTH = 12;

/** How one structured request is reached in a run. */
interface Scenario {
  readonly tool: string;
  /** Script overrides for the other requests (e.g. a collector that keeps asking for reruns, to reach the context manager). */
  readonly script?: Record<string, Route>;
  /** Agents per stage (default 1, which keeps 1400 runs fast; discovery reports are measured with the fixture's 3 areas). */
  readonly agentsPerStage?: number;
  /**
   * Files added to the fixture's four: 40 make the schema spell the file list out once and point at it; 200 pass the
   * enum cap, where a reply may cite the files its agent was shown. Those scenarios run a quarter of the runs.
   */
  readonly moreFiles?: number;
}

/** `count` small modules in a few folders. */
function moreFiles(count: number): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`src/part${i % 5}/module${i}.ts`, `export const part${i} = ${i};\n`]),
  );
}

/** The agent type the routing schema offers (its enum), so the scripted decision routes to the stuck agent. */
function offeredAgentType(request: ModelRequest): string {
  const sent = request.tools?.[0] === undefined ? requestText(request) : JSON.stringify(request.tools[0].inputSchema);
  return /"targetAgentType":\s*\{[^}]*?"enum":\s*\[\s*"([\w-]+)"/.exec(sent)?.[1] ?? 'discovery-agent';
}

const SCRIPTED_ROUTING: Route = request =>
  valueReply({
    reason: 'The agent keeps getting the same feedback.',
    next: {
      kind: 'route',
      targetAgentType: offeredAgentType(request),
      context: {
        goal: 'Map src only.',
        summary: 'Earlier attempts covered src/app.ts.',
        instructions: 'Read src/util/math.ts this time.',
        relevantItemIds: [],
        excludedItemIds: [],
      },
    },
  });

const LOOPING_DISCOVERY: Record<string, Route> = {
  discovery_collector_result: request =>
    valueReply(
      discoveryCollectorDraft(resultIdsIn(request), {
        kind: 'rerun',
        rationale: 'Still not deep enough.',
        agentIds: ['discovery-1'],
      }),
    ),
};

/**
 * Past the enum cap a reply may cite only the files its agent was shown, and the script's collector and ticket agents
 * cite the fixture's: in a large workspace they follow the schema they are sent too (the measured tool is not scripted).
 */
function largeWorkspaceScript(): Record<string, Route> {
  return { discovery_collector_result: schemaFollowing(98), ticket_agent_result: schemaFollowing(99) };
}

/** Answers with instances of the schema it is sent (the responder is made on first use, after the faker loads). */
function schemaFollowing(seed: number): Route {
  let responder: Responder | undefined;
  return (request, index) =>
    (responder ??= schemaFollowingResponder({ seed, maxDepth: DEPTH }).responder)(request, index);
}

const SCENARIOS: readonly Scenario[] = [
  { tool: 'discovery_report', agentsPerStage: 3 },
  { tool: 'discovery_collector_result' },
  { tool: 'planning_agent_result' },
  { tool: 'planning_collector_result' },
  { tool: 'ticket_agent_result' },
  { tool: 'ticket_collector_result' },
  { tool: 'route_context', script: LOOPING_DISCOVERY },
  { tool: 'discovery_report', agentsPerStage: 3, moreFiles: 40 },
  { tool: 'discovery_collector_result', moreFiles: 40 },
  { tool: 'ticket_agent_result', moreFiles: 40 },
  { tool: 'discovery_report', agentsPerStage: 3, moreFiles: 200, script: largeWorkspaceScript() },
  { tool: 'discovery_collector_result', moreFiles: 200, script: largeWorkspaceScript() },
  { tool: 'ticket_agent_result', moreFiles: 200, script: largeWorkspaceScript() },
];

/**
 * Model variants: optional fields half present, always absent, always present; tool calling and fenced JSON.
 * 200 seeded runs per request kind in all (each run asks it at least once; discovery reports three times).
 */
const VARIANTS: readonly {
  readonly label: string;
  readonly runs: number;
  readonly options: Partial<SchemaFollowingOptions> & { readonly supportsToolCalling?: boolean };
}[] = [
  { label: 'optionals 0.5', runs: 80, options: { seed: 0, optionalsProbability: 0.5 } },
  { label: 'optionals absent', runs: 40, options: { seed: 1, optionalsProbability: 0 } },
  { label: 'optionals present', runs: 40, options: { seed: 2, optionalsProbability: 1 } },
  { label: 'fenced JSON', runs: 40, options: { seed: 3, supportsToolCalling: false } },
];

/** Statuses a run may end in; 'failed' is what a user meets as an error. */
const FINE = new Set(['completed', 'needs_user']);

/** `others`, except that requests for `tool` go to `measured` (the earlier and later steps are scripted). */
function measuredFor(tool: string, measured: LanguageModel, others: LanguageModel): LanguageModel {
  return {
    ...others,
    supportsToolCalling: measured.supportsToolCalling,
    sendRequest: (request, token) => (requestedName(request) === tool ? measured : others).sendRequest(request, token),
    countTokens: (text, token) => others.countTokens(text, token),
  };
}

async function play(scenario: Scenario, measured: ScriptedModel): Promise<void> {
  const others = pipelineModel(
    { route_context: SCRIPTED_ROUTING, ...scenario.script },
    { supportsToolCalling: measured.supportsToolCalling },
  );
  const { outcome } = await runFixture(others, {
    model: measuredFor(scenario.tool, measured, others),
    options: { maxAgentsPerStage: scenario.agentsPerStage ?? 1 },
    ...(scenario.moreFiles === undefined ? {} : { reader: fixtureReader(moreFiles(scenario.moreFiles)) }),
  });
  if (!FINE.has(outcome.status)) {
    throw new Error(
      `the run ended "${outcome.status}": ${'message' in outcome ? String(outcome.message).slice(0, 400) : ''}`,
    );
  }
}

/** The scenarios to run: all, or the one CONFORMANCE_TOOL names (for a quick look at one schema). */
function selected(): readonly Scenario[] {
  const tool = process.env['CONFORMANCE_TOOL'];
  return tool === undefined || tool === '' ? SCENARIOS : SCENARIOS.filter(scenario => scenario.tool === tool);
}

/** Runs per variant, scaled down with CONFORMANCE_RUNS for a quick look (e.g. the baseline). */
function runsOf(runs: number): number {
  const scale = Number(process.env['CONFORMANCE_RUNS'] ?? '');
  return Number.isFinite(scale) && scale > 0 ? Math.min(runs, scale) : runs;
}

describe('contract conformance: /plan accepts every reply that follows the JSON Schema it sends @slow', function () {
  this.timeout(300_000);
  const lines: string[] = [];
  after(() => {
    for (const line of lines) console.log(`      ${line}`);
  });

  for (const scenario of selected()) {
    for (const variant of VARIANTS) {
      const workspace = scenario.moreFiles === undefined ? '' : `, ${scenario.moreFiles + 4} files`;
      it(`${scenario.tool}${workspace}, ${variant.label}`, async () => {
        const figures: ConformanceFigures = await measureConformance(
          scenario.tool,
          runsOf(scenario.moreFiles === undefined ? variant.runs : Math.ceil(variant.runs / 4)),
          model => play(scenario, model),
          { maxDepth: DEPTH, ...variant.options },
        );
        lines.push(describeConformance({ ...figures, tool: `${scenario.tool}${workspace} [${variant.label}]` }));
        assert.equal(figures.deadEnds, 0, figures.failures.join('\n'));
        assert.ok(acceptance(figures) >= 0.99, `${describeConformance(figures)}\n${figures.failures.join('\n')}`);
      });
    }
  }
});
