import * as vscode from 'vscode';
import * as assert from '../assert';
import { CouncilLog, describeError, formatTurn } from '../../../src/vscode/log';

describe('Council log (LogOutputChannel)', () => {
  let channel: vscode.LogOutputChannel;
  beforeEach(() => {
    channel = vscode.window.createOutputChannel('Council log test', { log: true });
  });
  afterEach(() => channel.dispose());

  it('formats a turn with ids and numbers only', () => {
    assert.equal(
      formatTurn({ sessionId: 's-1', state: 'debating', modelId: 'council-test-model', calls: 3, latencyMs: 1234.6, promptTokens: 812, command: 'debate' }),
      'turn session=s-1 state=debating model=council-test-model calls=3 latencyMs=1235 promptTokens=812 command=debate',
    );
  });

  it('builds trace text only when the channel is at Trace level', () => {
    const log = CouncilLog.over(channel);
    let built = 0;
    const text = () => {
      built += 1;
      return 'the full prompt';
    };
    log.logTrace('prompt', text);
    assert.equal(channel.logLevel === vscode.LogLevel.Trace, log.traceEnabled);
    assert.equal(built, log.traceEnabled ? 1 : 0);
    log.logTurn({ sessionId: 's-1', state: 'final', modelId: 'm', calls: 1, latencyMs: 5, promptTokens: 9 });
    log.logError(new Error('boom'), 'restoring session s-1');
    log.dispose(); // leaves a channel it did not create open
    channel.info('still open');
  });

  it('describes errors with their code and stack', () => {
    const error = new vscode.LanguageModelError('model refused');
    assert.match(describeError(error), /model refused/);
    assert.match(describeError(vscode.FileSystemError.FileNotFound('x')), /\(FileNotFound\)/);
    assert.equal(describeError('plain'), 'plain');
  });
});
