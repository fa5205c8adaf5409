import * as vscode from 'vscode';
import { startCouncilSession } from '../chat/councilDeps';
import { debateAheadOf } from '../chat/debateAheadOf';
import { OpenInputSchema, TOOL, type OpenInput } from '../../core/council/toolSession';
import { MAX_PANEL } from '../../core/personas/select';
import { openingForecastLine, type CostEstimate } from '../../core/council/deliberation';
import { MAX_REPAIRS_PER_REPLY } from '../../core/llm/repairBudget';
import { loadCouncilPersonas } from '../personas/personaSource';
import { withPinned } from '../personas/pinnedPersonas';
import { readCouncilSettings } from '../settings';
import {
  type CouncilToolEnvironment,
  type ToolTurn,
  NO_MODEL,
  inputProblems,
  textResult,
  modelText,
  priced,
  seated,
  onSession,
  toolTurn,
  advanceSession,
  sessionResult,
} from './councilToolRun';
import { CallPlans } from './callPlans';

/** One `council_open` call, planned once for its confirmation and its run (callPlans.ts). */
interface OpenCall {
  /** The settings, the model and the personas; undefined when no model is available. */
  readonly turn: ToolTurn | undefined;
  readonly named: ReturnType<typeof seated>;
  readonly opening: number;
  readonly cost?: CostEstimate;
}

async function planOpen(env: CouncilToolEnvironment, input: OpenInput): Promise<OpenCall> {
  const turn = await toolTurn(env);
  const settings = turn?.settings ?? readCouncilSettings();
  const registry = turn?.registry ?? (await loadCouncilPersonas(env.context.extensionUri, settings));
  const named = seated(env, registry, input.personas);
  const opening = settings.protocol === 'thorough' && named.length === 0 ? 2 : 1;
  if (!turn) return { turn, named, opening };
  // The bound: every reply of the opening malformed and repaired; the expected figure: the opening alone.
  const estimate = { fewest: opening, most: opening * (1 + MAX_REPAIRS_PER_REPLY) };
  return {
    turn,
    named,
    opening,
    cost: await priced(estimate, input.question, named.length || MAX_PANEL, turn.choice.model, settings, opening),
  };
}

/**
 * `council_open`: opens a session as `@council` does (the council chosen, its clarifying questions with recommended
 * answers) and, when called from a chat where VS Code's question tool exists, puts the questions to the user one at a
 * time. Stops before the debate: `council_deliberate` continues the session by id, with its own confirmation.
 */
export function openTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<OpenInput> {
  const calls = new CallPlans<OpenCall>();
  return {
    async prepareInvocation(options) {
      const input = OpenInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Opening a council session' };
      const { turn, opening, cost } = await calls.prepare(options.input, () => planOpen(env, input.data));
      const choice = turn?.choice;
      return {
        invocationMessage: `Opening a council session: ${input.data.question.replace(/\s+/g, ' ').slice(0, 80)}`,
        confirmationMessages: {
          title: 'Open a Council session?',
          message: new vscode.MarkdownString(
            `Council will choose the personas for "${input.data.question.replace(/\s+/g, ' ').slice(0, 200)}" and prepare its clarifying questions, each with a recommended answer.\n\n` +
              `- Model: ${choice ? modelText(choice) : 'none is available, so the council cannot run'}.\n` +
              `- ${openingForecastLine(opening, cost)}, within \`council.budget.maxCredits\`.\n` +
              '- The debate is confirmed separately, with its own estimate.',
          ),
        },
      };
    },
    async invoke(options, token) {
      const input = OpenInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `${TOOL.open} needs a question: ${inputProblems(OpenInputSchema, options.input, input.error.issues)} Pass {"question": "…"} and, optionally, "context" and "personas".`,
        );
      const { turn, named } = await calls.take(options.input, () => planOpen(env, input.data));
      if (!turn) return textResult(NO_MODEL);
      const { settings, choice } = turn;
      const context = input.data.context?.trim();
      const request = context ? `${input.data.question.trim()}\n\nContext:\n${context}` : input.data.question.trim();
      const text = await onSession(env, turn, TOOL.open, token, async ({ deps }, progress) => {
        const log = await startCouncilSession(
          env,
          { request: withPinned(request, named), limits: settings.limits },
          deps,
        );
        const ask = options.toolInvocationToken;
        const outcome = await advanceSession(
          env,
          log,
          deps,
          { commands: [{ kind: 'retry' }], debate: false, ...(ask ? { ask } : {}) },
          progress.token,
        );
        const ahead = await debateAheadOf(log, choice.model, settings, env.store);
        return { log, result: sessionResult(log, choice, { ...outcome, ...(ahead ? { ahead } : {}) }) };
      });
      return textResult(text);
    },
  };
}
