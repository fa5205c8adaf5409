import * as assert from 'node:assert/strict';
import { feedbackLine } from '../../../../src/vscode/storage/feedbackLog';

describe('the log line for feedback on a response', () => {
  it('names the council session and its state', () => {
    assert.equal(
      feedbackLine('helpful', { council: 1, sessionId: 's-1', state: 'completed', actions: {} }),
      'feedback kind=helpful session=s-1 state=completed',
    );
  });

  it('names a /plan run and its status', () => {
    assert.equal(
      feedbackLine('unhelpful', { plan: 1, runId: 'r-2', status: 'done' }),
      'feedback kind=unhelpful plan=r-2 status=done',
    );
  });

  it('says when the result is not one it knows, and never copies free text into the line', () => {
    assert.equal(feedbackLine('unhelpful', undefined), 'feedback kind=unhelpful result=unknown');
    assert.equal(
      feedbackLine('helpful', { council: 1, sessionId: 'my secret prompt' }),
      'feedback kind=helpful session=none',
    );
  });
});
