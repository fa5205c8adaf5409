import { strict as assert } from 'node:assert';
import {
  episodicMemoryContributor,
  type EpisodeSummary,
  type EpisodicMemory,
} from '../../../../../src/core/plan/contributors/episodicMemory';
import { toolGuidanceContributor } from '../../../../../src/core/plan/contributors/toolGuidance';
import { workspaceFactsContributor } from '../../../../../src/core/plan/contributors/workspaceFacts';
import { promptContext, RUN } from './support';

describe('workspaceFactsContributor', () => {
  it('states name, folders, languages and file count for every agent', async () => {
    const folders = Array.from({ length: 11 }, (_, index) => `f${index}`);
    const contributor = workspaceFactsContributor({
      read: async () => ({ name: 'shop', folders, languages: ['TypeScript', 'Go'], fileCount: 412 }),
    });
    assert.equal(contributor.appliesTo, 'all');
    assert.equal(
      await contributor.contribute(promptContext()),
      `Workspace: shop\nFolders: ${folders.slice(0, 10).join(', ')} and 1 more\nLanguages: TypeScript, Go\nFiles: 412`,
    );
  });

  it('says nothing when no folder is open', async () => {
    assert.equal(
      await workspaceFactsContributor({ read: async () => undefined }).contribute(promptContext()),
      undefined,
    );
  });
});

describe('episodicMemoryContributor', () => {
  const episode = (runId: string, finishedAt: string, summary = 'done'): EpisodeSummary => ({
    runId,
    finishedAt,
    outcome: 'completed',
    summary,
  });

  it('lists three earlier runs newest first, leaving out the current run (a resumed one) and clipping long summaries', async () => {
    // The store's newest first; the current run ended once (Stop) and is resumed now.
    const stored = [
      episode(RUN, '2026-01-19T09:00:00.000Z', 'this very run'),
      episode('wf-new', '2026-01-10T00:00:00.000Z', 'x'.repeat(500)),
      episode('wf-mid', '2026-01-05T00:00:00.000Z'),
      episode('wf-old', '2026-01-01T00:00:00.000Z'),
      episode('wf-oldest', '2025-12-01T00:00:00.000Z'),
    ];
    const memory: EpisodicMemory = { recall: async limit => stored.slice(0, limit) };
    const contributor = episodicMemoryContributor(memory);
    const text = await contributor.contribute(promptContext('planning-agent'));
    assert.equal(
      text,
      [
        'Earlier runs in this workspace, newest first (build on what they decided; do not repeat a failure):',
        `- 2026-01-10 (completed): ${'x'.repeat(399)}…`,
        '- 2026-01-05 (completed): done',
        '- 2026-01-01 (completed): done',
      ].join('\n'),
    );
  });

  it('applies to the agents that plan and work tickets (orchestrators send no prompt) and says nothing without earlier runs', async () => {
    const contributor = episodicMemoryContributor({ recall: async () => [] });
    assert.deepEqual(contributor.appliesTo, ['planning-agent', 'ticket-agent']);
    assert.equal(await contributor.contribute(promptContext('planning-agent')), undefined);
  });
});

describe('toolGuidanceContributor', () => {
  it('says how to use the read-only tools without naming them again (each request carries its tools, the instructions name them)', async () => {
    const tools = [{ name: 'council_readFile', description: 'Reads a file range.' }];
    const text = (await toolGuidanceContributor(() => tools).contribute(promptContext())) ?? '';
    assert.match(text, /read only the lines you need/);
    assert.match(text, /never guess what a file holds/);
    assert.doesNotMatch(text, /council_readFile|Reads a file range/);
  });

  it('goes to the agents that explore, not to planning agents, which are offered no tools', () => {
    assert.deepEqual(toolGuidanceContributor(() => []).appliesTo, ['discovery-agent', 'ticket-agent']);
  });

  it('says nothing when no tools exist', async () => {
    assert.equal(await toolGuidanceContributor(() => []).contribute(promptContext()), undefined);
  });
});
