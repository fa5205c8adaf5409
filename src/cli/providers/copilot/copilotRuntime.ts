import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CopilotClient, ModelInfo } from '@github/copilot-sdk';
import { LanguageModelFailure } from '../../../core/llm/languageModel';
import { INSTALL_COPILOT_CLI } from './findCopilotCli';

/*
 * One Copilot CLI process (`copilot --headless --stdio`, driven by @github/copilot-sdk) shared by every model of a
 * provider: started at the first request, checked logged in, stopped once no request has run for a moment (the
 * `council` command then exits; a later request starts it again). The SDK is loaded here, only when a copilot
 * provider sends its first request.
 */

type Environment = Readonly<Record<string, string | undefined>>;

/** How long the CLI stays up with no request running: covers the gap between a cycle's requests. */
const IDLE_STOP_MS = 1_500;

export const LOG_IN =
  'run `copilot login` (or start `copilot` and type /login), or set COPILOT_GITHUB_TOKEN (or GH_TOKEN) to a token with Copilot access, then run the command again';

/**
 * The MCP servers the user configured for Copilot CLI (`~/.copilot/mcp-config.json`): every session would start
 * them, though Council offers the model none of their tools, so Council's sessions disable them by name.
 */
function userMcpServers(environment: Environment): string[] {
  const home = environment.COPILOT_HOME?.trim() || join(environment.HOME?.trim() || homedir(), '.copilot');
  try {
    const config = JSON.parse(readFileSync(join(home, 'mcp-config.json'), 'utf8')) as { mcpServers?: unknown };
    return config.mcpServers && typeof config.mcpServers === 'object' ? Object.keys(config.mcpServers) : [];
  } catch {
    return [];
  }
}

export class CopilotRuntime {
  /** MCP servers Council's sessions do not start. */
  readonly disabledMcpServers: readonly string[];
  private client: Promise<CopilotClient> | undefined;
  private running = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    protected readonly cliPath: string,
    protected readonly environment: Environment,
    private readonly idleStopMs = IDLE_STOP_MS,
  ) {
    this.disabledMcpServers = userMcpServers(environment);
  }

  /** The started, logged-in client for one request; `release` it when the request ends. */
  async acquire(): Promise<CopilotClient> {
    this.running += 1;
    clearTimeout(this.idleTimer);
    this.client ??= this.start();
    try {
      return await this.client;
    } catch (error) {
      this.client = undefined;
      this.release();
      throw error;
    }
  }

  release(): void {
    this.running = Math.max(0, this.running - 1);
    if (this.running > 0 || !this.client) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stop(), this.idleStopMs);
  }

  /** The models this account may use (the SDK caches the list); empty when the CLI cannot list them. */
  async models(client: CopilotClient): Promise<readonly ModelInfo[]> {
    return client.listModels().catch(() => []);
  }

  /** Stops the CLI process (a request still running fails); the next request starts it again. */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    const started = await client.catch(() => undefined);
    if (started) await started.stop().catch(() => started.forceStop());
  }

  private async start(): Promise<CopilotClient> {
    const client = await this.connect();
    try {
      await this.checkLoggedIn(client);
    } catch (error) {
      await client.stop().catch(() => client.forceStop());
      throw error;
    }
    return client;
  }

  /** Starts the CLI and connects to it over stdio. */
  protected async connect(): Promise<CopilotClient> {
    const { CopilotClient, RuntimeConnection } = await import('@github/copilot-sdk');
    const client = new CopilotClient({
      // The built-in GitHub MCP servers would start for every session too; none of their tools is offered.
      connection: RuntimeConnection.forStdio({ path: this.cliPath, args: ['--disable-builtin-mcps'] }),
      env: { ...this.environment },
      // Only errors reach the terminal (the SDK copies the CLI's stderr there).
      logLevel: 'error',
    });
    try {
      await client.start();
    } catch (error) {
      await client.forceStop().catch(() => undefined);
      throw new LanguageModelFailure(
        'unknown',
        `Copilot CLI (${this.cliPath}) did not start: ${error instanceof Error ? error.message : String(error)}. ${INSTALL_COPILOT_CLI}.`,
        error,
      );
    }
    return client;
  }

  /** Fails, saying how to log in, when the CLI has no account: every request would fail anyway. */
  protected async checkLoggedIn(client: CopilotClient): Promise<void> {
    const auth = await client.getAuthStatus().catch(() => undefined);
    if (auth?.isAuthenticated) return;
    throw new LanguageModelFailure(
      'noPermissions',
      `Copilot CLI is not logged in${auth?.statusMessage ? ` (${auth.statusMessage})` : ''}: ${LOG_IN}.`,
    );
  }
}

const shared = new Map<string, CopilotRuntime>();

/** The one runtime per Copilot CLI executable in this process. */
export function sharedCopilotRuntime(cliPath: string, environment: Environment): CopilotRuntime {
  let runtime = shared.get(cliPath);
  if (!runtime) {
    runtime = new CopilotRuntime(cliPath, environment);
    shared.set(cliPath, runtime);
  }
  return runtime;
}
