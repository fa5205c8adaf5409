import { parseArgs } from 'node:util';
import { debateTokens } from '../../core/council/debatePlan';
import { requestEstimate, type RequestEstimate } from '../../core/council/deliberation';
import type { SessionLog } from '../../core/council/sessionLog';
import { continuationCommands, councilLine, type SessionAction } from '../../core/council/toolSession';
import { CancelledError, type LanguageModel } from '../../core/llm/languageModel';
import { spendSummary, tokensText } from '../../core/llm/spending/spendText';
import { canAskMore, canExtend, canRevisit, effectiveCycleLimit } from '../../core/session/selectors';
import { continueCouncil } from '../askCouncil';
import { cliNextStepsText } from '../cliNextSteps';
import { sessionNextSteps } from '../../core/council/sessionNextSteps';
import { DemoModel } from '../demo/demoModel';
import { SessionFiles, unusableMessage } from '../sessionFiles';
import { confirmOnTerminal } from '../terminalPrompts';
import { commandModels, MAX_REQUESTS_PER_RUN } from './councilParts';
import { runOnTerminal } from './terminalSession';
import { UsageError } from './usageError';

/*
 * `council retry|extend|revisit|more <id>`: a stored session continued through the same typed continuations the
 * VS Code tools take (toolSession.ts continuationCommands), after its forecast and the person's yes.
 */

/** The continuations the command has, as the next steps name them. */
export const RESUME_ACTIONS = ['retry', 'extend', 'revisit', 'more'] as const satisfies readonly SessionAction[];
export type ResumeAction = (typeof RESUME_ACTIONS)[number];

const DOING: Record<ResumeAction, string> = {
  retry: 'go on from where it stopped',
  extend: 'debate further cycles',
  revisit: 'reopen the skipped questions, then debate again',
  more: 'ask the council for more clarifying questions, then debate again',
};

/** The requests continuing may make, by the rules the debate plans with (the VS Code tool's preview, in the terminal). */
function requestsAhead(log: SessionLog, action: ResumeAction, available: number, left: number): RequestEstimate {
  const context = log.snapshot.context;
  if (log.state === 'final') return { fewest: 1, most: Math.min(1, left) };
  const seats = context.participants.filter(p => p.type === 'persona').length;
  const limit = action === 'extend' ? context.limits.adminMaxDebateCycles : effectiveCycleLimit(log.snapshot);
  const cycles = Math.max(1, limit - context.debateCycles);
  const asking = action === 'more' ? 1 : 0;
  const debate = requestEstimate(
    seats > 0 ? { named: seats, available: seats } : { named: 0, available },
    cycles,
    0,
    'economy',
    Math.max(0, left - asking),
  );
  return { fewest: Math.min(left, debate.fewest + asking), most: Math.min(left, debate.most + asking) };
}

/** What continuing will do and may spend, shown before anything is spent. */
async function forecastText(
  log: SessionLog,
  action: ResumeAction,
  model: LanguageModel,
  estimate: RequestEstimate,
): Promise<string> {
  const context = log.snapshot.context;
  const seats = Math.max(1, context.participants.filter(p => p.type === 'persona').length);
  const tokens = debateTokens(estimate.most, await model.countTokens(context.requestText), seats);
  const request = context.requestText.replace(/\s+/g, ' ');
  const requests = estimate.fewest === estimate.most ? `${estimate.most}` : `${estimate.fewest}–${estimate.most}`;
  return (
    `Council will ${DOING[action]} on session ${log.sessionId} (${log.state}):\n` +
    `  "${request.length > 120 ? `${request.slice(0, 119)}…` : request}"\n` +
    `  ${councilLine(log.snapshot).replace(/\.\.$/, '.')}\n` +
    `  Model: ${model.name}.\n` +
    `  Forecast: ${requests} model request${estimate.most === 1 ? '' : 's'}` +
    `${estimate.most > 0 ? `, about ${tokensText(tokens.input + tokens.output)} tokens at most` : ''}` +
    ` (a malformed reply costs up to 2 more; at most ${MAX_REQUESTS_PER_RUN} this run); the session spent ${spendSummary(log.spent)} so far.\n`
  );
}

/** Why `action` cannot be taken on the session as it stands (the session's rules, checked before any forecast). */
function unavailableBecause(log: SessionLog, action: ResumeAction): string | undefined {
  const snapshot = log.snapshot;
  const id = log.sessionId;
  if (action === 'extend' && !canExtend(snapshot))
    return `Session ${id} cannot be extended: only a debate its cycle limit stopped (the council did not agree) can go on further (it is ${log.state}).`;
  if (action === 'revisit' && !canRevisit(snapshot))
    return `Session ${id} has no skipped question to reopen now: questions are revisited while the council is clarifying (it is ${log.state}).`;
  if (action === 'more' && !canAskMore(snapshot))
    return `Session ${id} cannot ask for more questions now: that is while the council is clarifying, within its ${snapshot.context.limits.maxClarificationRounds} rounds (it is ${log.state}).`;
  return undefined;
}

/** The session ran on the scripted demo model: it goes on on the same one unless another is named. */
function ranOnDemo(log: SessionLog): boolean {
  const demo = new DemoModel().name;
  const lines = log.ledger.entries;
  return lines.length > 0 && lines.every(line => line.model === demo);
}

/** `council <action> <id>`: continues the stored session; returns the exit code. */
export async function resume(
  action: ResumeAction,
  args: readonly string[],
  project: string,
  model?: LanguageModel,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      demo: { type: 'boolean' },
    },
  });
  const id = positionals[0];
  if (!id || positionals.length > 1)
    throw new UsageError(`council ${action} needs one session id (council sessions lists them).`);
  const files = new SessionFiles(project);
  const found = await files.read(id);
  if (found.kind === 'missing') throw new UsageError(`No session ${id} in ${files.folderPath}.`);
  if (found.kind === 'damaged' || found.kind === 'newer') {
    process.stderr.write(`${unusableMessage(found)}\n`);
    return 1;
  }
  const log = found.log;
  const unavailable = unavailableBecause(log, action);
  if (unavailable) {
    process.stderr.write(`${unavailable}${cliNextStepsText(sessionNextSteps(log.snapshot))}`);
    return 1;
  }
  const planned = continuationCommands(log.snapshot, { action });
  if ('refused' in planned) {
    process.stderr.write(`${planned.refused}\n`);
    return 1;
  }
  if (planned.commands.length === 0) {
    process.stderr.write(
      `Session ${id} is ${log.state}: there is nothing to go on with.${cliNextStepsText(sessionNextSteps(log.snapshot))}`,
    );
    return 0;
  }
  const demo = values.demo === true || (values.model === undefined && ranOnDemo(log));
  const models = await commandModels({
    project,
    demo,
    ...(values.model ? { modelFlag: values.model } : {}),
    ...(model ? { given: model } : {}),
  });
  const chat = models.model;
  const estimate = requestsAhead(log, action, models.personas.length, MAX_REQUESTS_PER_RUN);
  process.stderr.write(await forecastText(log, action, chat, estimate));
  const interactive = process.stdin.isTTY === true;
  if (values.yes !== true) {
    if (!interactive) {
      process.stderr.write('Not run: no terminal to confirm on. Run it again with --yes to go on.\n');
      return 1;
    }
    try {
      if (!(await confirmOnTerminal('Go on?'))) {
        process.stderr.write('Not run; nothing was spent.\n');
        return 1;
      }
    } catch (error) {
      if (!(error instanceof CancelledError)) throw error;
      process.stderr.write('\nNot run; nothing was spent.\n');
      return 130;
    }
  }
  return runOnTerminal(
    {
      project,
      models,
      json: values.json === true,
      interactive: values.yes !== true && interactive,
      spentBefore: log.requestsUsed,
    },
    options => continueCouncil(log, planned.commands, options),
  );
}
