import type { WorkflowContext } from './workflowContext';
import type { DeliverableContents } from './scriptHelpers';

/** Characters of one deliverable `{{include:…}}` inlines at most. */
const MAX_INCLUDE_CHARS = 100_000;

/**
 * Renders `finalization.template`: `{{workflow_name}}`, `{{goal}}`, `{{output_dir}}`, `{{feature_name}}`,
 * `{{date}}`, `{{deliverables}}` (a list of the files), `{{feedback}}` (what the user typed at checkpoints) and
 * `{{include:<path>}}` (a deliverable's text, by its path under the run folder). Unknown placeholders stay as
 * they are, so a typo shows in the document instead of vanishing.
 */
export function renderFinalDocument(template: string, context: WorkflowContext, contents: DeliverableContents, date: string): string {
  const folder = context.output_dir;
  const list = context.deliverables.map(deliverable => `- [${deliverable.path.slice(folder.length + 1)}](${deliverable.path.slice(folder.length + 1)}) (${deliverable.phase}, ${deliverable.subagent})`).join('\n');
  const feedback = context.checkpoints.filter(record => record.feedback).map(record => `- ${record.phase}: ${record.feedback}`).join('\n');
  const values: Record<string, string> = {
    workflow_name: context.workflow.name,
    goal: context.goal,
    output_dir: folder,
    feature_name: context.feature.name,
    date,
    deliverables: list || '_No files were written._',
    feedback: feedback || '_No feedback was given._',
  };
  return template.replace(/\{\{\s*(include:\s*[^}]+|[a-z_]+)\s*\}\}/g, (whole, name: string) => {
    if (name.startsWith('include:')) {
      const path = name.slice('include:'.length).trim();
      const text = contents.get(`${folder}/${path.replace(/^\.\//, '')}`) ?? contents.get(path);
      return text === undefined ? `_(${path} was not written by this run)_` : text.slice(0, MAX_INCLUDE_CHARS);
    }
    return values[name] ?? whole;
  });
}
