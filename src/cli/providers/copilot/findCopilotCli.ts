import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { LanguageModelFailure } from '../../../core/llm/languageModel';

/*
 * Where the user's Copilot CLI is: the provider's `cliPath`, else COPILOT_CLI_PATH, else `copilot` on the PATH.
 * Found before any request, so a machine without it gets what to install instead of a failed council.
 */

type Environment = Readonly<Record<string, string | undefined>>;

export const INSTALL_COPILOT_CLI =
  'Install it with `npm install -g @github/copilot` (or see https://docs.github.com/copilot/how-tos/set-up/install-copilot-cli), run `copilot login`, then run the command again';

/**
 * The executable to start, resolved through links: an npm install's `copilot` is a link to its `npm-loader.js`,
 * which the SDK starts with this Node (on Windows the `.cmd` shim cannot be spawned, its loader can).
 */
function executable(path: string): string {
  const real = realpathSync(path);
  if (/\.cmd$/i.test(real)) {
    const loader = join(dirname(real), 'node_modules', '@github', 'copilot', 'npm-loader.js');
    if (existsSync(loader)) return loader;
  }
  return real;
}

/** The Copilot CLI to run for provider `providerName`; a missing one says what to install or set. */
export function findCopilotCli(providerName: string, cliPath: string | undefined, environment: Environment): string {
  const named = cliPath ?? environment.COPILOT_CLI_PATH?.trim();
  if (named) {
    if (!existsSync(named)) {
      const where = cliPath ? `the provider "${providerName}"'s cliPath` : 'COPILOT_CLI_PATH';
      throw new LanguageModelFailure(
        'notFound',
        `Copilot CLI is not at ${named} (${where}). Point ${where} at the \`copilot\` executable, or remove it to use \`copilot\` on the PATH.`,
      );
    }
    return executable(named);
  }
  const names =
    process.platform === 'win32'
      ? (environment.PATHEXT ?? '.EXE;.CMD').split(';').map(extension => `copilot${extension.toLowerCase()}`)
      : ['copilot'];
  for (const folder of (environment.PATH ?? environment.Path ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(folder, name);
      if (existsSync(candidate)) return executable(candidate);
    }
  }
  throw new LanguageModelFailure(
    'notFound',
    `Copilot CLI is not installed: no \`copilot\` on the PATH (provider "${providerName}"). ${INSTALL_COPILOT_CLI}; or set COPILOT_CLI_PATH (or the provider's "cliPath") to the executable.`,
  );
}
