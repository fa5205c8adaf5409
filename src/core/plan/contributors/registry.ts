import type { AgentType } from '../schemas/agentType';
import { MAX_CONTRIBUTOR_PRIORITY, type PromptContributor } from './promptContributor';

/** The prompt contributors of one pipeline run (spec 000 PromptContributorRegistry). */
export class PromptContributorRegistry {
  private readonly byName = new Map<string, PromptContributor>();

  /** Adds a contributor (Council's own: its type says what it is); a second one of the same name is a bug. */
  register(contributor: PromptContributor): this {
    if (this.byName.has(contributor.name))
      throw new Error(`A prompt contributor named "${contributor.name}" is already registered.`);
    const { priority } = contributor;
    if (!Number.isInteger(priority) || priority < 0 || priority > MAX_CONTRIBUTOR_PRIORITY)
      throw new Error(
        `Prompt contributor "${contributor.name}" has priority ${priority}; give it a whole number from 0 to ${MAX_CONTRIBUTOR_PRIORITY}.`,
      );
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
