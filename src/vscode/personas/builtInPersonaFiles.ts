/**
 * The file names in the extension's `personas/` folder. The web extension host serves extension files
 * over http(s), where `workspace.fs.readDirectory` is not supported, so the folder cannot be listed at
 * run time; `test/unit/vscode/personas/builtInPersonaFiles.test.ts` keeps this list equal to the folder.
 */
export const BUILT_IN_PERSONA_FILES: readonly string[] = [
  'devils-advocate.md',
  'devops-engineer.md',
  'performance-engineer.md',
  'product-manager.md',
  'qa-engineer.md',
  'security-expert.md',
  'senior-developer.md',
  'software-architect.md',
];

/** The folder inside the extension that holds the built-in persona files. */
export const BUILT_IN_PERSONA_FOLDER = 'personas';
