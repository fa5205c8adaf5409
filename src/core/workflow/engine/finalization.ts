import type { DeliverableContents } from './scriptHelpers';
import { fillTemplate } from './templating';
import type { WorkflowContext } from './workflowContext';

/** Characters of one deliverable `{{include:…}}` inlines at most. */
const MAX_INCLUDE_CHARS = 100_000;

/**
 * Renders `finalization.template`: the run's placeholders (`values`: `{{goal}}`, `{{output_dir}}`, …) plus
 * `{{date}}`, `{{deliverables}}` (a list of the files), `{{feedback}}` (what the user typed at checkpoints) and
 * `{{include:<path>}}` (a deliverable's text, by its path under the run folder).
 */
export function renderFinalDocument(
  template: string,
  values: Readonly<Record<string, string>>,
  context: WorkflowContext,
  contents: DeliverableContents,
  date: string,
): string {
  const folder = context.output_dir;
  const list = context.deliverables
    .map(
      deliverable =>
        `- [${deliverable.path.slice(folder.length + 1)}](${deliverable.path.slice(folder.length + 1)}) (${deliverable.phase}, ${deliverable.subagent})`,
    )
    .join('\n');
  const feedback = context.checkpoints
    .filter(record => record.feedback)
    .map(record => `- ${record.phase}: ${record.feedback}`)
    .join('\n');
  // Placeholders first, then the included files, so a file's own text is never taken for a placeholder.
  const filled = fillTemplate(template, {
    ...values,
    date,
    deliverables: list || '_No files were written._',
    feedback: feedback || '_No feedback was given._',
  });
  return filled.replace(/\{\{\s*include:\s*([^}]+?)\s*\}\}/g, (_whole, path: string) => {
    const text = contents.get(`${folder}/${path.replace(/^\.\//, '')}`) ?? contents.get(path);
    return text === undefined ? `_(${path} was not written by this run)_` : text.slice(0, MAX_INCLUDE_CHARS);
  });
}
