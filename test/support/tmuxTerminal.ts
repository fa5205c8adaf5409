import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';

/*
 * A real pseudo-terminal for end-to-end tests of the `council` command: tmux on its own socket (never another tmux
 * server), one window running a shell command, read back as the person would see it.
 */
export class TmuxTerminal {
  private readonly socket: string;

  constructor(name: string) {
    this.socket = `${name}-${process.pid}-${Date.now()}`;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Runs `command` in a new window; the window stays open a minute after it ends, so its output can be read. */
  start(command: string, environment: Readonly<Record<string, string>> = {}): void {
    const exports = Object.entries(environment).map(([name, value]) => `export ${name}=${JSON.stringify(value)}; `);
    this.tmux('new-session', '-d', '-x', '200', '-y', '50', `${exports.join('')}${command}; echo "EXIT=$?"; sleep 60`);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-');
  }

  /** Types `text` literally, then Enter. */
  type(text: string): void {
    if (text) this.tmux('send-keys', '-l', text);
    this.tmux('send-keys', 'Enter');
  }

  /** Presses Ctrl+C. */
  interrupt(): void {
    this.tmux('send-keys', 'C-c');
  }

  async waitFor(pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.screen();
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; the terminal showed:\n${text}`);
      await new Promise(resolve => setTimeout(resolve, 100));
    }
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
