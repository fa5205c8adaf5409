import type { ToolDefinition } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PromptContributor } from './promptContributor';
import { clip } from './text';

/** Longest tool description kept, in characters. */
const MAX_DESCRIPTION_CHARS = 200;

const EXPLORING_AGENTS: readonly AgentType[] = ['discovery-agent', 'planning-agent', 'ticket-agent', 'context-manager'];

const HOW_TO_USE = [
  'Using them well:',
  '- Search or list first, then read only the files and line ranges you need.',
  '- Prefer one precise query over many broad ones; stop once you can answer.',
  '- Cite what you rely on as workspace-relative path and line numbers.',
  '- Never guess file contents: if a tool cannot tell you, say what is missing.',
  '- The tools cannot change files; put proposed changes in your structured answer.',
];

/**
 * Tells agents that explore the code which read-only tools exist and how to use them well.
 * `tools` is read at prompt time, so tools registered later are included.
 */
export function toolGuidanceContributor(
  tools: () => readonly Pick<ToolDefinition, 'name' | 'description'>[],
): PromptContributor {
  return {
    name: 'tool-guidance',
    appliesTo: EXPLORING_AGENTS,
    priority: 900,
    async contribute() {
      const available = tools();
      if (available.length === 0) return undefined;
      const lines = available.map(tool => `- ${tool.name}: ${clip(tool.description, MAX_DESCRIPTION_CHARS)}`);
      return ['Read-only tools you can call:', ...lines, '', ...HOW_TO_USE].join('\n');
    },
  };
}
