import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { chatIntent, openSessionCommand, SLASH, type SessionPhase } from '../../../../src/core/council/chatIntent';

const turn = (slash: string | undefined, prompt: string, phase: SessionPhase) => chatIntent(slash, prompt, phase);

describe('chatIntent: routing a chat request', () => {
  it('starts a session from a plain request, and /debate starts one without clarification', () => {
    assert.deepEqual(turn(undefined, ' How should we store sessions? ', 'none'), {
      kind: 'newSession',
      request: 'How should we store sessions?',
      skipClarification: false,
    });
    assert.deepEqual(turn(SLASH.debate, 'Tabs or spaces?', 'completed'), {
      kind: 'newSession',
      request: 'Tabs or spaces?',
      skipClarification: true,
    });
  });

  it('answers the open question with the typed text while clarifying', () => {
    assert.deepEqual(turn(undefined, 'Latency matters most', 'clarifying'), {
      kind: 'turn',
      command: { kind: 'answer', text: 'Latency matters most' },
    });
  });

  it('treats a reply that is only a skip keyword as skipping the question, never as the answer "skip"', () => {
    for (const text of ['skip', 'Skip.', 'pass', 'skip this question', 'later', 'SKIP IT']) {
      assert.deepEqual(turn(undefined, text, 'clarifying'), { kind: 'turn', command: { kind: 'skip' } }, text);
    }
    for (const text of ['skip all', 'Skip the rest', 'skip remaining questions']) {
      assert.deepEqual(turn(undefined, text, 'clarifying'), { kind: 'turn', command: { kind: 'skipAll' } }, text);
    }
  });

  it('keeps an answer that merely mentions a skip word an answer', () => {
    for (const text of ['We can skip auth for now', 'Defer the migration to Q3', 'later this year']) {
      assert.deepEqual(turn(undefined, text, 'clarifying'), { kind: 'turn', command: { kind: 'answer', text } }, text);
    }
  });

  it('continues an interrupted session on an empty prompt or a resume word, and /retry anywhere with a session', () => {
    for (const phase of ['created', 'debating', 'final'] as const) {
      assert.deepEqual(turn(undefined, '', phase), { kind: 'turn', command: { kind: 'retry' } });
      assert.deepEqual(turn(undefined, 'try again', phase), { kind: 'turn', command: { kind: 'retry' } });
    }
    assert.deepEqual(turn(SLASH.retry, '', 'clarifying'), { kind: 'turn', command: { kind: 'retry' } });
  });

  it('explains what to do when a session command arrives without a session', () => {
    for (const slash of [
      SLASH.accept,
      SLASH.skip,
      SLASH.skipAll,
      SLASH.more,
      SLASH.revisit,
      SLASH.extend,
      SLASH.retry,
      SLASH.cancel,
    ]) {
      const intent = turn(slash, '', 'none');
      assert.equal(intent.kind, 'explain', slash);
      assert.match(intent.kind === 'explain' ? intent.message : '', /Ask `@council` a question/);
    }
  });

  it('/new with text starts over with it; without text it resets; /plan carries its goal', () => {
    assert.deepEqual(turn(SLASH.newSession, 'Pick a queue', 'completed'), {
      kind: 'newSession',
      request: 'Pick a queue',
      skipClarification: false,
    });
    assert.deepEqual(turn(SLASH.newSession, '', 'debating'), { kind: 'reset' });
    assert.deepEqual(turn(SLASH.plan, ' Add a helper ', 'none'), { kind: 'plan', goal: 'Add a helper' });
  });

  it('/debate while clarifying skips the remaining questions; without text elsewhere it explains', () => {
    assert.deepEqual(turn(SLASH.debate, '', 'clarifying'), { kind: 'turn', command: { kind: 'skipAll' } });
    assert.equal(turn(SLASH.debate, '', 'completed').kind, 'explain');
  });

  it('a new request after a completed session starts a new session', () => {
    assert.deepEqual(turn(undefined, 'Another question', 'completed'), {
      kind: 'newSession',
      request: 'Another question',
      skipClarification: false,
    });
  });

  it('/open <session id> opens a stored session in this thread, in any phase; without an id it explains', () => {
    assert.deepEqual(turn(SLASH.open, ' abc-123 ', 'none'), { kind: 'open', sessionId: 'abc-123' });
    assert.deepEqual(turn(SLASH.open, 'abc-123 please', 'clarifying'), { kind: 'open', sessionId: 'abc-123' });
    assert.equal(turn(SLASH.open, '  ', 'completed').kind, 'explain');
  });

  it('what the council tool tells an agent to type is the /open command', () => {
    const typed = openSessionCommand('abc-123');
    assert.equal(typed, '@council /open abc-123');
    assert.deepEqual(turn(SLASH.open, typed.replace('@council /open ', ''), 'none'), {
      kind: 'open',
      sessionId: 'abc-123',
    });
  });
});

describe('the slash commands', () => {
  it('are exactly the ones package.json contributes for @council, so the chat offers every command the router knows', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: { chatParticipants: { commands: { name: string }[] }[] };
    };
    const contributed = manifest.contributes.chatParticipants[0]?.commands.map(c => c.name) ?? [];
    assert.deepEqual([...contributed].sort(), Object.values(SLASH).sort());
  });
});
