import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../src/core/council/councilTurn';
import { openSession } from '../../../src/core/council/opening';
import { neverCancelled } from '../../../src/core/llm/languageModel';
import type { CouncilDeps } from '../../../src/core/council/ports';
import type { DebateProtocol } from '../../../src/core/council/protocol';
import type { SessionLog } from '../../../src/core/council/sessionLog';
import type { SessionLimitsInit } from '../../../src/core/session/limits';
import {
  acceptance,
  describeConformance,
  measureConformance,
  type ConformanceFigures,
} from '../../support/conformance';
import { builtInPersonas, councilResponder, councilRig } from '../../support/councilHarness';
import type { CouncilScriptOptions } from '../../support/councilScript';
import { routedModel } from '../../support/routedModel';
import type { ScriptedModel } from '../../support/scriptedModel';
import type { SchemaFollowingOptions } from '../../support/schemaFollowingModel';

// Every structured request the council makes is answered, one at a time, by a model that knows only the
// JSON Schema sent; the other requests of the session are played by the council script. A reply that is a
// valid instance of what we publish must be accepted without a repair round, and no turn may dead-end.

/** How one structured request is reached in a session, and what the session must look like afterwards. */
interface Scenario {
  readonly title: string;
  readonly tool: string;
  /** The requests the measured model answers (default: only `tool`); the script plays the rest. */
  readonly routed?: readonly string[];
  readonly script?: CouncilScriptOptions;
  readonly limits?: SessionLimitsInit;
  readonly skipClarification?: boolean;
  /** The debate protocol (default: the core's default, economy). */
  readonly protocol?: DebateProtocol;
  /** The turns after the first one (which resumes the new session). */
  readonly then?: (log: SessionLog, deps: CouncilDeps) => Promise<void>;
  /** The states the session may end the last turn in. */
  readonly endsIn: readonly string[];
}

const LIMITS: SessionLimitsInit = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 20 };

const SCENARIOS: readonly Scenario[] = [
  // The economy protocol (the default) opens a session with one request: the council and round 1's questions.
  {
    title: 'open_session (economy)',
    tool: 'open_session',
    script: { convergeAtCycle: 1 },
    endsIn: ['clarifying', 'completed'],
  },
  {
    title: 'open_session (economy), then the debate with the questions skipped',
    tool: 'open_session',
    routed: ['open_session', 'contribute_to_debate'],
    limits: { ...LIMITS, debateCycleLimit: 3 },
    then: async (log, deps) => {
      if (log.state === 'clarifying') await runCouncilTurn(log, { kind: 'skipAll' }, deps);
    },
    endsIn: ['completed'],
  },
  { title: 'select_personas (thorough)', tool: 'select_personas', protocol: 'thorough', endsIn: ['clarifying'] },
  ...(['economy', 'thorough'] as const).map((protocol): Scenario => ({
    title: `propose_clarifying_questions (${protocol === 'economy' ? 'round 2' : 'rounds 1 and 2'}, ${protocol})`,
    tool: 'propose_clarifying_questions',
    protocol,
    script: { convergeAtCycle: 1 },
    then: async (log, deps) => {
      if (log.state === 'clarifying') await runCouncilTurn(log, { kind: 'more' }, deps);
    },
    endsIn: ['clarifying', 'completed'],
  })),
  {
    title: 'contribute_to_debate (cycles 1 and 2, economy)',
    tool: 'contribute_to_debate',
    skipClarification: true,
    script: { convergeAtCycle: 2 },
    endsIn: ['completed'],
  },
  // With the decision's options every contribution backs one: the enum of their numbers and "another answer".
  {
    title: "contribute_to_debate with the decision's options (economy)",
    tool: 'contribute_to_debate',
    skipClarification: true,
    script: { convergeAtCycle: 2, decisionOptions: true },
    endsIn: ['completed'],
  },
  // Cycle 2 is drafted while the moderator reads cycle 1, and cycle 3 while it reads cycle 2 (then cancelled).
  {
    title: 'contribute_to_debate (cycles 1 and 2, thorough)',
    tool: 'contribute_to_debate',
    protocol: 'thorough',
    skipClarification: true,
    script: { convergeAtCycle: 2 },
    endsIn: ['completed'],
  },
  // Only the thorough protocol asks a moderator; the economy protocol reads convergence from the contributions.
  {
    title: 'moderate_cycle (thorough)',
    tool: 'moderate_cycle',
    protocol: 'thorough',
    skipClarification: true,
    limits: { ...LIMITS, debateCycleLimit: 2 },
    endsIn: ['completed'],
  },
  {
    title: 'give_conclusion',
    tool: 'give_conclusion',
    script: { questions: 1 },
    then: async (log, deps) => {
      await runCouncilTurn(log, { kind: 'skipAll' }, deps);
    },
    endsIn: ['completed'],
  },
  // The final answer is streamed prose (no reply schema), so a whole session measures the debate's structured requests.
  ...(['economy', 'thorough'] as const).map((protocol): Scenario => ({
    title: `a whole /debate session (${protocol}), every structured request schema-following`,
    tool: 'contribute_to_debate',
    routed: ['select_personas', 'contribute_to_debate', 'moderate_cycle'],
    protocol,
    skipClarification: true,
    limits: { ...LIMITS, debateCycleLimit: 3 },
    endsIn: ['completed'],
  })),
];

/**
 * openSession measured by calling it directly, every request going to the measured model, which also
 * checks that it costs exactly one request: the council and round 1's questions at once, or, with the
 * council named by the user, only the questions.
 */
interface StepScenario {
  readonly title: string;
  readonly tool: string;
  readonly request: string;
}

const STEP_SCENARIOS: readonly StepScenario[] = [
  {
    title: 'openSession called directly: one open_session request',
    tool: 'open_session',
    request: 'How should we store user sessions?',
  },
  {
    title: 'openSession called directly, personas named: one propose_clarifying_questions request',
    tool: 'propose_clarifying_questions',
    request: 'Ask the security expert and the architect how we should store user sessions.',
  },
];

async function playStep(scenario: StepScenario, measured: ScriptedModel): Promise<void> {
  const opening = await openSession({
    request: scenario.request,
    attached: [],
    personas: await builtInPersonas(),
    model: measured,
    token: neverCancelled,
    maxRounds: LIMITS.maxClarificationRounds ?? 3,
  });
  if (opening.selection.personas.length === 0) throw new Error('the opening chose no persona');
  const asked = measured.requests.length;
  if (asked !== 1) throw new Error(`the opening made ${asked} requests (repairs included), not one`);
}

/** Model variants: tool calling and fenced JSON, and optional fields always absent or always present. */
const VARIANTS: readonly {
  readonly label: string;
  readonly runs: number;
  readonly options: Partial<SchemaFollowingOptions> & { readonly supportsToolCalling?: boolean };
}[] = [
  { label: 'tool call', runs: 200, options: { seed: 0 } },
  { label: 'fenced JSON', runs: 100, options: { seed: 1, supportsToolCalling: false } },
  { label: 'optionals absent', runs: 50, options: { seed: 2, optionalsProbability: 0 } },
  { label: 'optionals present', runs: 50, options: { seed: 3, optionalsProbability: 1 } },
];

async function play(scenario: Scenario, measured: ScriptedModel): Promise<void> {
  const rig = await councilRig({
    responder: councilResponder(scenario.script),
    ...(scenario.protocol ? { protocol: scenario.protocol } : {}),
  });
  const deps: CouncilDeps = {
    ...rig.deps,
    model: routedModel(measured, scenario.routed ?? [scenario.tool], rig.model),
  };
  const log = newCouncilSession(
    {
      request: 'How should we store user sessions?',
      userId: 'user-1',
      limits: scenario.limits ?? LIMITS,
      skipClarification: scenario.skipClarification,
    },
    deps,
  );
  await runCouncilTurn(log, { kind: 'retry' }, deps);
  await scenario.then?.(log, deps);
  if (!scenario.endsIn.includes(log.state)) throw new Error(`the session ended the turn in "${log.state}"`);
}

describe('contract conformance: the council accepts every reply that follows the published JSON Schema @slow', function () {
  this.timeout(120_000);
  const lines: string[] = [];
  after(() => {
    for (const line of lines) console.log(`      ${line}`);
  });

  for (const scenario of SCENARIOS) {
    for (const variant of VARIANTS) {
      it(`${scenario.title}, ${variant.label}`, async () => {
        const figures: ConformanceFigures = await measureConformance(
          scenario.tool,
          variant.runs,
          model => play(scenario, model),
          variant.options,
        );
        lines.push(`${describeConformance({ ...figures, tool: `${scenario.title} [${variant.label}]` })}`);
        assert.equal(figures.deadEnds, 0, figures.failures.join('\n'));
        assert.ok(acceptance(figures) >= 0.99, `${describeConformance(figures)}\n${figures.failures.join('\n')}`);
      });
    }
  }

  for (const scenario of STEP_SCENARIOS) {
    for (const variant of VARIANTS) {
      it(`${scenario.title}, ${variant.label}`, async () => {
        const figures = await measureConformance(
          scenario.tool,
          variant.runs,
          model => playStep(scenario, model),
          variant.options,
        );
        lines.push(describeConformance({ ...figures, tool: `${scenario.title} [${variant.label}]` }));
        assert.equal(figures.deadEnds, 0, figures.failures.join('\n'));
        assert.ok(acceptance(figures) >= 0.99, `${describeConformance(figures)}\n${figures.failures.join('\n')}`);
      });
    }
  }
});
