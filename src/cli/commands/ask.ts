import { parseArgs } from 'node:util';
import type { LanguageModel } from '../../core/llm/languageModel';
import { askCouncil } from '../askCouncil';
import { DEMO_DECISION } from '../demo/demoModel';
import { commandModel } from './councilParts';
import { runOnTerminal } from './terminalSession';
import { UsageError } from './usageError';

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
    },
  });
  const demo = values.demo === true;
  const decision = positionals.join(' ').trim() || (demo ? DEMO_DECISION : '');
  if (!decision) throw new UsageError('council ask needs the decision: council ask "Should we …?"');
  const chat = model ?? commandModel({ demo, ...(values.model ? { model: values.model } : {}) });
  return runOnTerminal(
    {
      project,
      model: chat,
      json: values.json === true,
      interactive: values.yes !== true && process.stdin.isTTY === true,
    },
    options => askCouncil({ decision, ...options }),
  );
}
