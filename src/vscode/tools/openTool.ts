import type * as vscode from 'vscode';
import { OpenInputSchema, TOOL, type OpenInput } from '../../core/council/toolSession';
import { MAX_PANEL } from '../../core/personas/select';
import { openingTokens } from '../../core/council/debatePlan';
import { openingForecastLine, sessionRequest } from '../../core/council/deliberation';
import { MAX_REPAIRS_PER_REPLY } from '../../core/llm/repairBudget';
import { withPinned } from '../personas/pinnedPersonas';
import {
  type CouncilToolEnvironment,
  type SessionCall,
  modelText,
  priced,
  seated,
  sessionTool,
  toolTurn,
} from './councilToolRun';

/** One `council_open` call: the council, its opening requests and their cost, from one settings read. */
async function planOpen(env: CouncilToolEnvironment, input: OpenInput): Promise<SessionCall> {
  const { settings, registry, turn } = await toolTurn(env);
  const named = seated(env, registry, input.personas);
  const opening = settings.protocol === 'thorough' && named.length === 0 ? 2 : 1;
  // The bound: every reply of the opening malformed and repaired; the expected figure: the opening alone.
  const estimate = { fewest: opening, most: opening * (1 + MAX_REPAIRS_PER_REPLY) };
  const seats = named.length || MAX_PANEL;
  const expected = (context: number) => {
    const one = openingTokens(context, registry.personas.length);
    return { requests: opening, input: opening * one.input, output: opening * one.output };
  };
  const cost = turn && (await priced(estimate, input.question, seats, turn.choice.model, settings, expected));
  const question = input.question.replace(/\s+/g, ' ');
  const request = sessionRequest(input.question, input.context);
  return {
    turn,
    confirmation: {
      title: 'Open a Council session?',
      message:
        `Council will choose the personas for "${question.slice(0, 200)}" and prepare its clarifying questions, each with a recommended answer.\n\n` +
        `- Model: ${turn ? modelText(turn.choice) : 'none is available, so the council cannot run'}.\n` +
        `- ${openingForecastLine(opening, cost)}, within \`council.budget.maxCredits\`.\n` +
        '- The debate is confirmed separately, with its own estimate.',
    },
    run: {
      session: { request: withPinned(request, named), limits: settings.limits },
      commands: [{ kind: 'retry' }],
      asks: true,
      forecastAhead: true,
    },
  };
}

/**
 * `council_open`: opens a session as `@council` does (the council chosen, its clarifying questions with recommended
 * answers) and, when called from a chat where VS Code's question tool exists, puts the questions to the user one at a
 * time. Stops before the debate: `council_deliberate` continues the session by id, with its own confirmation.
 */
export function openTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<OpenInput> {
  return sessionTool(env, TOOL.open, {
    schema: OpenInputSchema,
    working: input =>
      input
        ? `Opening a council session: ${input.question.replace(/\s+/g, ' ').slice(0, 80)}`
        : 'Opening a council session',
    plan: input => planOpen(env, input),
  });
}
