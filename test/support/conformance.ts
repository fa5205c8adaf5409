import type { ScriptedModel } from './scriptedModel';
import { loadSchemaFaker, schemaFollowingModel, type SchemaFollowingOptions } from './schemaFollowingModel';

/** How a step fared against a model that follows only the published JSON Schema. */
export interface ConformanceFigures {
  /** Tool (reply) name measured. */
  readonly tool: string;
  readonly runs: number;
  /** Runs whose replies to `tool` were accepted without a repair round. */
  readonly acceptedFirstTime: number;
  /** Runs where the step threw (the user would have met an error). */
  readonly deadEnds: number;
  /** The first few failures, for the assertion message. */
  readonly failures: readonly string[];
}

/** Acceptance rate as a fraction of runs. */
export function acceptance(figures: ConformanceFigures): number {
  return figures.acceptedFirstTime / figures.runs;
}

/**
 * Runs `step` once per seed against a fresh schema-following model and counts, for the reply named
 * `tool`, how often it was accepted without repair and how often the step failed outright.
 */
export async function measureConformance(
  tool: string,
  runs: number,
  step: (model: ScriptedModel, seed: number) => Promise<unknown>,
  options: Partial<SchemaFollowingOptions> & { readonly supportsToolCalling?: boolean } = {},
): Promise<ConformanceFigures> {
  await loadSchemaFaker();
  let acceptedFirstTime = 0;
  let deadEnds = 0;
  const failures: string[] = [];
  for (let seed = 1; seed <= runs; seed++) {
    const { model, counts } = schemaFollowingModel({ ...options, seed: (options.seed ?? 0) * 100_000 + seed });
    try {
      await step(model, seed);
    } catch (error) {
      deadEnds += 1;
      if (failures.length < 5) failures.push(`seed ${seed}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const asked = counts.requests.get(tool) ?? 0;
    const repaired = counts.repairs.get(tool) ?? 0;
    if (asked > 0 && repaired === 0) acceptedFirstTime += 1;
    else if (asked > 0 && failures.length < 5) failures.push(`seed ${seed}: ${repaired} repair(s) of ${tool}`);
  }
  return { tool, runs, acceptedFirstTime, deadEnds, failures };
}

/** One line per figure, for the closing note and the test log. */
export function describeConformance(figures: ConformanceFigures): string {
  return `${figures.tool}: ${figures.acceptedFirstTime}/${figures.runs} accepted without repair, ${figures.deadEnds} dead ends`;
}
