/**
 * The file names in the extension's `workflows/` folder. The web extension host serves extension files
 * over http(s), where `workspace.fs.readDirectory` is not supported, so the folder cannot be listed at
 * run time; `test/unit/vscode/deepWork/builtInWorkflowFiles.test.ts` keeps this list equal to the folder.
 */
export const BUILT_IN_WORKFLOW_FILES: readonly string[] = ['plan.yaml'];

/** The folder inside the extension that holds the built-in workflow files. */
export const BUILT_IN_WORKFLOW_FOLDER = 'workflows';
