import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { systemClock } from '../../core/clock';
import { DECISIONS } from '../../core/council/eval/decisions';
import type { CouncilOutput } from '../../core/council/ports';
import { neverCancelled, type LanguageModel } from '../../core/llm/languageModel';
import { evalCouncil } from '../evalCouncil';
import { SessionFiles } from '../sessionFiles';
import { commandModels } from './councilParts';
import { UsageError } from './usageError';

/** `council eval`: the report goes to stdout, progress to stderr; nothing is written in the project but sessions. */
export async function evaluate(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { model: { type: 'string' }, demo: { type: 'boolean' }, only: { type: 'string' } },
  });
  const demo = values.demo === true;
  // The demo model plays one decision (user sessions); on a real model every decision runs.
  const wanted = values.only ?? (demo ? 'sessions' : undefined);
  const decisions = wanted === undefined ? DECISIONS : DECISIONS.filter(d => d.id === wanted);
  if (decisions.length === 0)
    throw new UsageError(`No eval decision "${wanted}". The decisions: ${DECISIONS.map(d => d.id).join(', ')}.`);
  const models = await commandModels({
    project,
    demo,
    ...(values.model ? { modelFlag: values.model } : {}),
    ...(model ? { given: model } : {}),
  });
  const files = new SessionFiles(project);
  const quiet: CouncilOutput = { progress: () => undefined, markdown: () => undefined, visible: () => undefined };
  const { report } = await evalCouncil({
    decisions,
    model: models.model,
    councilDeps: () => ({
      model: models.model,
      ...(models.roleModels ? { roleModels: models.roleModels } : {}),
      personas: models.personas,
      clock: systemClock,
      ids: { next: randomUUID },
      output: quiet,
      token: neverCancelled,
      persist: stored => files.save(stored),
      spending: models.spending(),
    }),
    now: () => Date.now(),
    progress: line => process.stderr.write(`… ${line}\n`),
  });
  process.stdout.write(`${report}\n`);
  return 0;
}
