import { CancelledError, throwIfCancelled, type CancellationSignal } from '../../llm/languageModel';
import type { Contribution, PromptContext } from './promptContributor';
import type { PromptContributorRegistry } from './registry';
import { delimitUntrusted } from '../../llm/dataFence';

/**
 * Runs every contributor that applies to `ctx.agentType` (concurrently) and returns their texts
 * in priority order, each fenced as untrusted data. Empty contributions are left out; a failing
 * contributor is skipped (a prompt without it beats no prompt), but cancellation stops all.
 */
export async function assembleContributions(
  registry: PromptContributorRegistry,
  ctx: PromptContext,
  token: CancellationSignal,
): Promise<Contribution[]> {
  throwIfCancelled(token);
  const contributors = registry.forAgent(ctx.agentType);
  const texts = await Promise.all(
    contributors.map(async contributor => {
      try {
        return await contributor.contribute(ctx, token);
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        return undefined;
      }
    }),
  );
  throwIfCancelled(token);
  return contributors.flatMap(({ name, priority }, index) => {
    const text = texts[index]?.trim();
    return text ? [{ name, priority, text: delimitUntrusted(name, text) }] : [];
  });
}
