import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  buildWorkflowCatalog,
  type WorkflowCatalog,
  type WorkflowFileRead,
} from '../../core/deepWork/buildWorkflowCatalog';
import { DEEP_WORK_AGENT_TYPES } from '../../core/deepWork/runDeepWork';
import { parseWorkflow } from '../../core/workflow/definition/parseWorkflow';
import type { WorkflowSource } from '../../core/workflow/definition/workflowDefinition';

/** A workflow file's name. */
const WORKFLOW_FILE = /\.ya?ml$/;

/**
 * The folder Council's package is installed in (the one that holds `workflows/plan.yaml`), found upwards from this
 * file: `dist/cli/` when bundled, `src/cli/deepWork/` when run from the sources.
 */
export function packageRoot(from: string = __dirname): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'workflows', 'plan.yaml'))) return folder;
    if (dirname(folder) === folder) return from;
  }
}

async function readAll(folder: string, kind: WorkflowSource['kind'], shown: (name: string) => string) {
  let names: string[];
  try {
    names = (await readdir(folder)).filter(name => WORKFLOW_FILE.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(
    names.map(async (name): Promise<WorkflowFileRead> => {
      const source: WorkflowSource = { kind, path: shown(name) };
      try {
        return { source, text: await readFile(join(folder, name), 'utf8') };
      } catch (error) {
        return { source, readError: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

/**
 * The workflows a run may use: the package's built-ins (`workflows/*.yaml`), then the project's
 * `.council/workflows/*.yaml` (the user ran the command in it, as a trusted VS Code workspace would load them); a
 * project workflow replaces the built-in of the same name. Skills may name no VS Code tools here.
 */
export async function projectWorkflows(project: string, root: string = packageRoot()): Promise<WorkflowCatalog> {
  const [builtIn, own] = await Promise.all([
    readAll(join(root, 'workflows'), 'built-in', name => `built-in workflows/${name}`),
    readAll(join(project, '.council', 'workflows'), 'workspace', name => `.council/workflows/${name}`),
  ]);
  return buildWorkflowCatalog(builtIn, own, (text, source) =>
    parseWorkflow(text, source, { knownTypes: DEEP_WORK_AGENT_TYPES, knownTools: new Set() }),
  );
}
