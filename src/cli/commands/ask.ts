import { parseArgs } from 'node:util';
import type { LanguageModel } from '../../core/llm/languageModel';
import { DEFAULT_DEBATE_CYCLE_LIMIT, type SessionLimitsInit } from '../../core/session/limits';
import { askCouncil } from '../askCouncil';
import { DEMO_DECISION } from '../demo/demoModel';
import { commandModels } from './councilParts';
import { runOnTerminal } from './terminalSession';
import { UsageError } from './usageError';

/** `--cycles <n>`: the debate stops after n cycles unless the council agrees first; extend goes on up to the maximum. */
function cycleLimits(text: string): SessionLimitsInit {
  const cycles = Number(text);
  if (!Number.isInteger(cycles) || cycles < 1 || cycles > DEFAULT_DEBATE_CYCLE_LIMIT)
    throw new UsageError(`--cycles takes a whole number from 1 to ${DEFAULT_DEBATE_CYCLE_LIMIT}, not "${text}".`);
  return { debateCycleLimit: cycles, adminMaxDebateCycles: DEFAULT_DEBATE_CYCLE_LIMIT };
}

/** `council ask "<decision>"`: a new session, from the decision to its answer. */
export async function ask(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      demo: { type: 'boolean' },
      cycles: { type: 'string' },
    },
  });
  const demo = values.demo === true;
  const decision = positionals.join(' ').trim() || (demo ? DEMO_DECISION : '');
  if (!decision) throw new UsageError('council ask needs the decision: council ask "Should we …?"');
  const limits = values.cycles === undefined ? {} : cycleLimits(values.cycles);
  const models = await commandModels({
    project,
    demo,
    ...(values.model ? { modelFlag: values.model } : {}),
    ...(model ? { given: model } : {}),
  });
  return runOnTerminal(
    {
      project,
      models,
      json: values.json === true,
      interactive: values.yes !== true && process.stdin.isTTY === true,
    },
    options => askCouncil({ decision, limits, ...options }),
  );
}
