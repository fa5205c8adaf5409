import { formatSchemaRef, type SchemaRef } from './semver';

/** Upgrades a payload of one schema from one major version to the next. */
export interface MigrationStep {
  readonly schema: string;
  readonly fromMajor: number;
  readonly description: string;
  /** Must return a payload for `fromMajor + 1`; may throw when the payload cannot be migrated. */
  readonly migrate: (payload: unknown) => unknown;
}

/** What asking for a migration gave. */
export type MigrationOutcome =
  | { readonly kind: 'migrated'; readonly payload: unknown; readonly applied: readonly string[] }
  | { readonly kind: 'missing'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly cause: unknown };

/** Registered major-version steps, chained to move a payload across several majors (1 -> 2 -> 3). */
export class MigrationRegistry {
  private readonly steps = new Map<string, MigrationStep>();

  /** Adds the step `schema` `fromMajor` -> `fromMajor + 1`; throws if that step is already registered. */
  register(step: MigrationStep): this {
    const key = `${step.schema}@${step.fromMajor}`;
    if (this.steps.has(key))
      throw new Error(`A migration for ${step.schema} from major ${step.fromMajor} is already registered.`);
    this.steps.set(key, step);
    return this;
  }

  /** Moves `payload` from `from` to `to` (same schema name) through registered steps; only upgrades are possible. */
  migrate(payload: unknown, from: SchemaRef, to: SchemaRef): MigrationOutcome {
    if (from.name !== to.name) return { kind: 'missing', reason: `cannot migrate ${from.name} into ${to.name}` };
    if (from.version.major > to.version.major) {
      return {
        kind: 'missing',
        reason: `${formatSchemaRef(from)} is newer than the supported ${formatSchemaRef(to)}; payloads are never downgraded`,
      };
    }
    let current = payload;
    const applied: string[] = [];
    for (let major = from.version.major; major < to.version.major; major++) {
      const step = this.steps.get(`${from.name}@${major}`);
      if (!step)
        return {
          kind: 'missing',
          reason: `no migration registered for ${from.name} from major ${major} to ${major + 1}`,
        };
      try {
        current = step.migrate(current);
      } catch (cause) {
        const detail = cause instanceof Error ? cause.message : String(cause);
        return { kind: 'failed', reason: `migration ${from.name} ${major} -> ${major + 1} failed: ${detail}`, cause };
      }
      applied.push(step.description);
    }
    return { kind: 'migrated', payload: current, applied };
  }
}
