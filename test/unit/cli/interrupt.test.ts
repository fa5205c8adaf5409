import { strict as assert } from 'node:assert';
import { interruptOnCtrlC } from '../../../src/cli/interrupt';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

describe('Ctrl+C in the council command', () => {
  it('the first stops the spending (the token fires once), the second exits at once', () => {
    const said: string[] = [];
    const listeners = process.listenerCount('SIGINT');
    const interrupt = interruptOnCtrlC(
      text => said.push(text),
      code => {
        throw new Exited(code);
      },
    );
    try {
      let fired = 0;
      interrupt.token.onCancellationRequested(() => (fired += 1));
      assert.equal(interrupt.token.isCancellationRequested, false);
      process.emit('SIGINT');
      assert.equal(interrupt.token.isCancellationRequested, true);
      assert.equal(interrupt.signal.aborted, true);
      assert.equal(fired, 1);
      assert.match(said[0] ?? '', /no further model request will be sent/);
      assert.throws(
        () => interrupt.press(),
        (error: unknown) => error instanceof Exited && error.code === 130,
      );
    } finally {
      interrupt.dispose();
    }
    assert.equal(process.listenerCount('SIGINT'), listeners, 'no listener left behind');
  });
});
