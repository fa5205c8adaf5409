/**
 * The one placeholder syntax of workflow files: `{{name}}` in output paths, checkpoint prompts and files, skill args
 * and the finalization template (`{{output_dir}}`, `{{phase_id}}`, `{{workflow_name}}`, `{{goal}}`, …). An unknown
 * placeholder stays as it is, so a typo shows instead of vanishing.
 */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}
