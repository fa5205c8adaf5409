import * as vscode from 'vscode';
import * as assert from '../assert';
import { logCouncilTurn, type CouncilRunEnvironment } from '../../../src/vscode/chat/councilDeps';
import type { SessionLog } from '../../../src/core/council/sessionLog';
import { NO_SPEND } from '../../../src/core/llm/spending/ledger';
import { CouncilLog, describeError, formatTurn, type TurnLogEntry } from '../../../src/vscode/log';
import { readCouncilSettings } from '../../../src/vscode/settings';

/** Sets the channel's level the way a user does (Output view > gear > level) and waits until the channel sees it. */
async function setLevelAsUser(channel: vscode.LogOutputChannel, level: vscode.LogLevel): Promise<void> {
  channel.show(true);
  const deadline = Date.now() + 5000;
  while (channel.logLevel !== level) {
    if (Date.now() > deadline) throw new Error(`the channel stayed at log level ${channel.logLevel}, wanted ${level}`);
    await vscode.commands.executeCommand(`workbench.action.output.activeOutputLogLevel.${level}`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

describe('Council log (LogOutputChannel)', () => {
  // One channel for the suite: log channels are keyed by name, and re-creating a disposed one fails.
  let channel: vscode.LogOutputChannel;
  before(() => {
    channel = vscode.window.createOutputChannel('Council log test', { log: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    channel.dispose();
  });

  it('formats a turn with ids and numbers only', () => {
    assert.equal(
      formatTurn({
        sessionId: 's-1',
        state: 'debating',
        modelId: 'council-test-model',
        calls: 3,
        latencyMs: 1234.6,
        inputTokens: 812,
        command: 'debate',
        sessionRequests: 7,
        budget: 12,
      }),
      'turn session=s-1 state=debating model=council-test-model calls=3 latencyMs=1235 inputTokens=812 command=debate sessionRequests=7 budget=12',
    );
  });

  it("logs a turn's requests and billed input tokens as what it added to the session's ledger", () => {
    const entries: TurnLogEntry[] = [];
    const env = { log: { logTurn: (entry: TurnLogEntry) => entries.push(entry) } } as unknown as CouncilRunEnvironment;
    const spent = { ...NO_SPEND, requests: 7, inputTokens: 9_000 };
    const log = { sessionId: 's-2', state: 'final', spent, requestsUsed: 7 } as unknown as SessionLog;
    const before = { ...NO_SPEND, requests: 4, inputTokens: 5_500 };
    logCouncilTurn(
      env,
      log,
      { modelId: 'm', command: 'extend', startedAt: Date.now(), spentBefore: before },
      readCouncilSettings(),
    );
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.calls, 3);
    assert.equal(entries[0]?.inputTokens, 3_500);
    assert.equal(entries[0]?.sessionRequests, 7);
    assert.equal(entries[0]?.command, 'extend');
  });

  it('writes trace text only once the user sets the channel to Trace', async () => {
    const log = CouncilLog.over(channel);
    let built = 0;
    const text = () => {
      built += 1;
      return 'the full prompt';
    };
    assert.notEqual(channel.logLevel, vscode.LogLevel.Trace);
    log.logTrace('prompt', text);
    assert.equal(built, 0);
    assert.equal(log.traceEnabled, false);

    await setLevelAsUser(channel, vscode.LogLevel.Trace);
    try {
      assert.equal(log.traceEnabled, true);
      log.logTrace('prompt', text);
      assert.equal(built, 1);
    } finally {
      await setLevelAsUser(channel, vscode.LogLevel.Info);
    }
    log.logTurn({ sessionId: 's-1', state: 'final', modelId: 'm', calls: 1, latencyMs: 5, inputTokens: 9 });
    log.logError(new Error('boom'), 'restoring session s-1');
    log.dispose(); // a log over a channel it did not create leaves the channel open
    channel.info('still open');
  });

  it('describes errors with their code and stack', () => {
    assert.match(describeError(new vscode.LanguageModelError('model refused')), /model refused/);
    assert.match(describeError(vscode.FileSystemError.FileNotFound('x')), /\(FileNotFound\)/);
    assert.equal(describeError('plain'), 'plain');
  });
});
