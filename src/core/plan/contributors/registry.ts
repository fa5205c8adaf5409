import { AgentType } from '../schemas/agentType';
import { MAX_CONTRIBUTOR_PRIORITY, MIN_CONTRIBUTOR_PRIORITY, type PromptContributor } from './promptContributor';

/** A contributor the registry refuses, with the reason. */
export class InvalidContributorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidContributorError';
  }
}

function problemWith(contributor: PromptContributor, taken: ReadonlySet<string>): string | undefined {
  if (contributor.name.trim() === '') return 'a prompt contributor needs a name';
  if (taken.has(contributor.name)) return `a prompt contributor named "${contributor.name}" is already registered`;
  const { priority } = contributor;
  if (!Number.isInteger(priority) || priority < MIN_CONTRIBUTOR_PRIORITY || priority > MAX_CONTRIBUTOR_PRIORITY) {
    return `prompt contributor "${contributor.name}" has priority ${priority}; use an integer from ${MIN_CONTRIBUTOR_PRIORITY} to ${MAX_CONTRIBUTOR_PRIORITY}`;
  }
  if (contributor.appliesTo !== 'all') {
    if (contributor.appliesTo.length === 0) return `prompt contributor "${contributor.name}" applies to no agent type`;
    const unknown = contributor.appliesTo.filter(type => !AgentType.safeParse(type).success);
    if (unknown.length > 0)
      return `prompt contributor "${contributor.name}" names unknown agent types: ${unknown.join(', ')}`;
  }
  return undefined;
}

/** The prompt contributors of one pipeline run (spec 000 PromptContributorRegistry). */
export class PromptContributorRegistry {
  private readonly byName = new Map<string, PromptContributor>();

  /** Adds a contributor; throws InvalidContributorError for a duplicate name, bad priority or bad agent types. */
  register(contributor: PromptContributor): this {
    const problem = problemWith(contributor, new Set(this.byName.keys()));
    if (problem !== undefined) throw new InvalidContributorError(problem);
    this.byName.set(contributor.name, contributor);
    return this;
  }

  /** The contributors for an agent type, by ascending priority (ties by name, so the order is stable). */
  forAgent(agentType: AgentType): PromptContributor[] {
    return [...this.byName.values()]
      .filter(contributor => contributor.appliesTo === 'all' || contributor.appliesTo.includes(agentType))
      .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  }
}
