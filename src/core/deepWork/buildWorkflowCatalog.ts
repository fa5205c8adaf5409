/**
 * Puts the read workflow files together into one catalogue (no `vscode` import, so unit tests run it in Node):
 * built-ins first, then the workspace's; a workspace workflow replaces the built-in of the same name, a file that
 * does not parse (or cannot be read) is a problem and the rest still load, and of two workspace files with the same
 * name the first by path wins.
 */
import {
  describeIssues,
  type WorkflowDefinition,
  type WorkflowIssue,
  type WorkflowParse,
  type WorkflowSource,
} from '../workflow/definition/workflowDefinition';
import { FILE_FIELD } from '../workflow/definition/workflowIssues';

/** A workflow file as read: its text, or why it could not be read. */
export type WorkflowFileRead =
  | { readonly source: WorkflowSource; readonly text: string }
  | { readonly source: WorkflowSource; readonly readError: string };

/** A file that gives no workflow, with what to fix. */
export interface WorkflowProblem {
  readonly source: WorkflowSource;
  readonly issues: readonly WorkflowIssue[];
}

/** The workflows a run may use, and the files that gave none. */
export interface WorkflowCatalog {
  /** Sorted by name; names are unique. */
  readonly workflows: readonly WorkflowDefinition[];
  readonly problems: readonly WorkflowProblem[];
  get(name: string): WorkflowDefinition | undefined;
}

/** The sentence a run of a workspace workflow that replaces a built-in starts with; undefined for any other. */
export function overrideNotice(workflow: WorkflowDefinition): string | undefined {
  const { source } = workflow;
  return source.overrides
    ? `This run uses the workspace's \`${source.path}\`, which replaces the built-in \`${workflow.name}\` workflow (${source.overrides}): its phases, agents and scripts run instead of Council's.`
    : undefined;
}

/** Where a workflow came from, as a person reads it: the path, and the built-in it overrides. */
export function describeWorkflowSource(source: WorkflowSource): string {
  return source.overrides ? `${source.path} (overrides ${source.overrides})` : source.path;
}

export function buildWorkflowCatalog(
  builtIn: readonly WorkflowFileRead[],
  workspace: readonly WorkflowFileRead[],
  // `loadWorkflows` passes `parseWorkflow` with the known agent types and tools.
  parse: (text: string, source: WorkflowSource) => WorkflowParse,
): WorkflowCatalog {
  const problems: WorkflowProblem[] = [];
  const fileProblem = (source: WorkflowSource, message: string): undefined => {
    problems.push({ source, issues: [{ field: FILE_FIELD, message }] });
    return undefined;
  };
  const parsed = (file: WorkflowFileRead): WorkflowDefinition | undefined => {
    if ('readError' in file) return fileProblem(file.source, `Could not read the file: ${file.readError}`);
    let result: WorkflowParse;
    try {
      result = parse(file.text, file.source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return fileProblem(file.source, `Could not parse the file: ${message}`);
    }
    if (!result.ok) {
      problems.push({ source: result.source, issues: result.issues });
      return undefined;
    }
    return result.workflow;
  };

  const byName = new Map<string, WorkflowDefinition>();
  for (const file of builtIn) {
    const workflow = parsed(file);
    if (workflow && !byName.has(workflow.name)) byName.set(workflow.name, workflow);
  }

  const workspaceByName = new Map<string, WorkflowDefinition>();
  for (const file of [...workspace].sort((a, b) => compareStrings(a.source.path, b.source.path))) {
    const workflow = parsed(file);
    if (!workflow) continue;
    const first = workspaceByName.get(workflow.name);
    if (first) {
      problems.push({
        source: workflow.source,
        issues: [
          {
            field: 'name',
            line: 'text' in file ? topLevelNameLine(file.text) : undefined,
            message: `\`${workflow.source.path}\` also defines workflow \`${workflow.name}\`, which \`${first.source.path}\` defines first (and is used); rename one.`,
          },
        ],
      });
      continue;
    }
    const replaced = byName.get(workflow.name);
    const entry: WorkflowDefinition = replaced
      ? { ...workflow, source: { ...workflow.source, overrides: replaced.source.path } }
      : workflow;
    workspaceByName.set(workflow.name, entry);
    byName.set(workflow.name, entry);
  }

  const workflows = [...byName.values()].sort((a, b) => compareStrings(a.name, b.name));
  return { workflows, problems, get: name => byName.get(name) };
}

/** Code-unit order, the same on every machine (unlike `localeCompare`). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The 1-based line of the top-level `name:` key, for messages. */
function topLevelNameLine(text: string): number | undefined {
  const index = text.split(/\r?\n/).findIndex(line => /^name[ \t]*:/.test(line));
  return index < 0 ? undefined : index + 1;
}

/** `path:line: field: message` lines for every problem, the way the user sees a rejected file. */
export function describeWorkflowProblems(problems: readonly WorkflowProblem[]): string {
  return problems.map(problem => describeIssues(problem.source, problem.issues)).join('\n');
}
