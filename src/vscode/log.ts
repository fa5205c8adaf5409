import * as vscode from 'vscode';

/** The name of Council's output channel (View > Output > Council). */
const COUNCIL_LOG_NAME = 'Council';

/** One chat turn's numbers. Deliberately has no field for the user's text or code: those are never logged. */
export interface TurnLogEntry {
  readonly sessionId: string;
  /** The session machine's state after the turn. */
  readonly state: string;
  readonly modelId: string;
  /** Model calls the turn made. */
  readonly calls: number;
  readonly latencyMs: number;
  /** Input tokens the turn's requests were billed (messages and tool schemas), from the session's ledger. */
  readonly inputTokens: number;
  /** The chat command (`/debate`, ...) when the turn used one. */
  readonly command?: string;
  /** Model requests the whole session has used so far (repairs included), and its budget (absent: no limit). */
  readonly sessionRequests?: number;
  readonly budget?: number;
}

/** The `vscode.LogOutputChannel` members the log writes through. */
export type LogChannel = Pick<vscode.LogOutputChannel, 'logLevel' | 'info' | 'trace' | 'error'>;

/**
 * Council's log: one `LogOutputChannel`. Info lines carry ids and numbers only; prompts and replies go
 * to `logTrace`, which writes (and builds its text) only when the user set the channel to Trace.
 */
export class CouncilLog implements vscode.Disposable {
  private constructor(
    private readonly channel: LogChannel,
    private readonly onDispose: () => void,
  ) {}

  /** Creates the `Council` output channel; dispose the log to close it. */
  static create(): CouncilLog {
    const channel = vscode.window.createOutputChannel(COUNCIL_LOG_NAME, { log: true });
    return new CouncilLog(channel, () => channel.dispose());
  }

  /** A log over an existing channel (e.g. one a test created); disposing it leaves the channel open. */
  static over(channel: LogChannel): CouncilLog {
    return new CouncilLog(channel, () => undefined);
  }

  /** Whether trace output is on, so callers can skip building expensive trace text. */
  get traceEnabled(): boolean {
    return this.channel.logLevel === vscode.LogLevel.Trace;
  }

  /** A one-line event with ids and numbers only (e.g. activation time). */
  info(message: string): void {
    this.channel.info(message);
  }

  /** One info line per chat turn: `turn session=… state=… model=… calls=… latencyMs=… inputTokens=…`. */
  logTurn(entry: TurnLogEntry): void {
    this.channel.info(formatTurn(entry));
  }

  /** Full text (a prompt, a reply) under a label, only at Trace level; `text` may be a function to build it lazily. */
  logTrace(label: string, text: string | (() => string)): void {
    if (!this.traceEnabled) return;
    this.channel.trace(`${label}\n${typeof text === 'function' ? text() : text}`);
  }

  /** An error with what Council was doing (`context`, e.g. "restoring session abc"). */
  logError(error: unknown, context: string): void {
    this.channel.error(`${context}: ${describeError(error)}`);
  }

  /** Closes the channel if this log created it. */
  dispose(): void {
    this.onDispose();
  }
}

/** The info line for a turn; ids and numbers only. */
export function formatTurn(entry: TurnLogEntry): string {
  const fields: [string, string | number][] = [
    ['session', entry.sessionId],
    ['state', entry.state],
    ['model', entry.modelId],
    ['calls', entry.calls],
    ['latencyMs', Math.round(entry.latencyMs)],
    ['inputTokens', entry.inputTokens],
  ];
  if (entry.command) fields.push(['command', entry.command]);
  if (entry.sessionRequests !== undefined) fields.push(['sessionRequests', entry.sessionRequests]);
  if (entry.budget !== undefined) fields.push(['budget', entry.budget]);
  return `turn ${fields.map(([key, value]) => `${key}=${value}`).join(' ')}`;
}

/** An error's name, code (for `LanguageModelError` / `FileSystemError`) and message, and its stack when there is one. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { readonly code?: unknown }).code;
  const head = `${error.name}${typeof code === 'string' && code !== '' ? ` (${code})` : ''}: ${error.message}`;
  const stack = error.stack?.split('\n').slice(1).join('\n');
  return stack ? `${head}\n${stack}` : head;
}
