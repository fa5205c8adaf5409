import { showCostsIn } from '../../core/llm/spending/spendText';
import { cliModels, type CliModels } from './cliModels';

/**
 * The user's models for a `council` command (config file, else environment), named on stderr, with costs shown in
 * dollars from here on; undefined when none is set up.
 */
export async function userModels(
  project: string,
  modelFlag: string | undefined,
  personas: readonly { readonly id: string }[],
  maxRequests: number,
): Promise<CliModels | undefined> {
  const chosen = await cliModels({
    project,
    environment: process.env,
    ...(modelFlag ? { modelFlag } : {}),
    personaIds: personas.map(p => p.id),
    maxRequests,
  });
  if (chosen) {
    showCostsIn('dollars');
    process.stderr.write(`… Models: ${chosen.source}\n`);
  }
  return chosen;
}
