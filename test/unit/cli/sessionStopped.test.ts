import { strict as assert } from 'node:assert';
import { sessionStoppedText } from '../../../src/cli/sessionStopped';
import { CancelledError, LanguageModelFailure } from '../../../src/core/llm/languageModel';

const FILE = '/p/.council/sessions/s1.json';

describe('what the council command says when a session stopped', () => {
  it('Ctrl+C: no further request, saved, council retry', () => {
    const text = sessionStoppedText(new CancelledError(), 's1', FILE);
    assert.match(text, /Stopped with Ctrl\+C: no further model request was sent\./);
    assert.match(text, /The session is saved: \/p\/\.council\/sessions\/s1\.json/);
    assert.match(text, /Go on from where it stopped .*\n  council retry s1\n$/);
  });

  it('a 429 names the wait the endpoint asked for; a 401 the key; a dropped connection the endpoint', () => {
    const limited = new LanguageModelFailure(
      'rateLimited',
      'The endpoint is rate limiting requests (429).',
      undefined,
      7,
    );
    assert.match(sessionStoppedText(limited, 's1', FILE), /Wait 7 seconds, then go on .*\n  council retry s1/);
    const refused = new LanguageModelFailure('noPermissions', 'The endpoint refused the API key (401).');
    assert.match(
      sessionStoppedText(refused, 's1', FILE),
      /refused the API key \(401\)\.\n.*\nSet a key the endpoint accepts, then go on/,
    );
    const dropped = new LanguageModelFailure('unknown', 'The model request failed: fetch failed');
    assert.match(
      sessionStoppedText(dropped, 's1', FILE),
      /fetch failed \(the connection dropped, or the endpoint failed\)/,
    );
  });

  it('an unrepairable reply says so and still offers the retry', () => {
    const text = sessionStoppedText(new LanguageModelFailure('malformedReply', 'no JSON in the reply'), 's1', FILE);
    assert.match(text, /could not be read, even after asking it to repair it: no JSON in the reply/);
    assert.match(text, /council retry s1/);
  });
});
