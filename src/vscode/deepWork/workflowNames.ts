/**
 * The pure parts of the workflow commands (no `vscode` import, so unit tests run them in Node): what a workflow
 * name may be, the text of a new workflow file, and the chat query that runs a workflow.
 */

import { WORKFLOW_NAME_PATTERN } from '../../core/workflow/definition/workflowSchema';
import { hyphenatedAscii } from '../workspace/fileNames';

/** Longest name `council.createWorkflow` accepts (it becomes a file name and a chat argument). */
const MAX_WORKFLOW_NAME_LENGTH = 60;

/** The kebab-case form of free text ("Code Review!" -> "code-review"), or '' when it has no letters or digits. */
export function suggestWorkflowName(text: string): string {
  return hyphenatedAscii(text)
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, MAX_WORKFLOW_NAME_LENGTH)
    .replace(/-+$/, '');
}

/** Why `name` cannot be a workflow name (what is wrong, and a name that would do), or undefined when it can. */
export function validateWorkflowName(name: string): string | undefined {
  if (name.trim() === '') return 'Enter a name in kebab-case, e.g. `code-review`.';
  const suggestion = suggestWorkflowName(name);
  const instead = suggestion && suggestion !== name ? ` Try \`${suggestion}\`.` : '';
  if (name !== name.trim()) return `Remove the spaces around the name.${instead}`;
  if (name.length > MAX_WORKFLOW_NAME_LENGTH)
    return `Keep the name to ${MAX_WORKFLOW_NAME_LENGTH} characters or fewer (it has ${name.length}).`;
  if (/[A-Z]/.test(name)) return `Use lower-case letters only (kebab-case).${instead}`;
  if (!/^[a-z]/.test(name)) return `Start the name with a letter (a-z).${instead}`;
  if (!WORKFLOW_NAME_PATTERN.test(name)) {
    const bad = [...new Set(name.replace(/[a-z0-9-]/g, ''))]
      .map(char => (char === ' ' ? 'space' : `\`${char}\``))
      .join(', ');
    return `Use only a-z, 0-9 and hyphens (kebab-case); the name contains ${bad}.${instead}`;
  }
  return undefined;
}

/**
 * The text of a new workflow file: `template` (the commented `WORKFLOW_TEMPLATE`) with the value of its top-level
 * `name:` line replaced by `name`; a trailing comment on that line is kept. A template without a top-level
 * `name:` line gets one at the top. `name` must already be valid (kebab-case needs no YAML quoting).
 */
export function templateFor(name: string, template: string): string {
  const invalid = validateWorkflowName(name);
  if (invalid) throw new Error(`Invalid workflow name ${JSON.stringify(name)}: ${invalid}`);
  const nameLine = /^name[ \t]*:[^\r\n#]*?([ \t]+#[^\r\n]*)?$/m;
  if (!nameLine.test(template)) return `name: ${name}\n${template}`;
  return template.replace(nameLine, (_line, comment: string | undefined) => `name: ${name}${comment ?? ''}`);
}

/** The chat query that runs workflow `name` on `goal`. */
export function workflowChatQuery(name: string, goal: string): string {
  return `@council /workflow ${name} ${goal.trim().replace(/\s*[\r\n]+\s*/g, ' ')}`;
}
