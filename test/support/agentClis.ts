import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './nodePersonaSource';

/*
 * The agent clients the plugin is installed into, from npm (their native binaries come as npm packages, so the
 * registry is all they need): pinned, installed once into .cache/agent-clis, never into the repo's dependencies.
 */

const FOLDER = join(REPO_ROOT, '.cache', 'agent-clis');
const CLIENTS = { copilot: '@github/copilot@1.0.102', claude: '@anthropic-ai/claude-code@2.1.332' } as const;

/** The path of a client's command, installing the pinned clients first when they are missing. */
export function agentCli(name: keyof typeof CLIENTS): string {
  const bin = join(FOLDER, 'node_modules', '.bin', name);
  if (!Object.keys(CLIENTS).every(client => existsSync(join(FOLDER, 'node_modules', '.bin', client)))) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(
      npm,
      [
        'install',
        '--prefix',
        FOLDER,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...Object.values(CLIENTS),
      ],
      { stdio: 'inherit', timeout: 300_000 },
    );
  }
  return bin;
}
