import * as assert from 'node:assert/strict';
import { questionHeader, questionToolInput, readQuestionReply } from '../../../../src/core/council/questionTool';
import type { ClarificationQuestion } from '../../../../src/core/session/clarification';

const question: ClarificationQuestion = {
  questionId: 'q1',
  sessionId: 's1',
  roundNumber: 1,
  sequenceInRound: 1,
  question: 'How many users will sign in at once?',
  targetAmbiguity: 'scale',
  askedBy: { kind: 'system' },
  recommendedAnswer: 'About 10k, in one region',
  createdAt: '2026-11-27T10:00:00.000Z',
  status: 'pending',
};

/** The reply VS Code's question tool gives for one header. */
function reply(header: string, answer: object): string {
  return JSON.stringify({ answers: { [header]: answer } });
}

describe("VS Code's question tool, one clarifying question per call", () => {
  it('puts the question with its recommended answer as the one recommended option, free text allowed', () => {
    const input = questionToolInput(question, questionHeader(1, 2));
    assert.deepEqual(input, {
      questions: [
        {
          header: 'Question 1 of 2',
          question: 'How many users will sign in at once?',
          options: [{ label: 'About 10k, in one region', recommended: true }],
          allowFreeformInput: true,
        },
      ],
    });
  });

  it('keeps a long question whole in the message and its first 200 characters as the question', () => {
    const long = { ...question, question: 'Why '.repeat(80) };
    const [q] = questionToolInput(long, 'Question 1 of 1').questions;
    assert.equal(q.question.length, 200);
    assert.equal(q.message, long.question.trim());
  });

  it('reads a chosen option, typed text (which wins), a skip, and nobody there (autopilot) as a skip', () => {
    const h = 'Question 1 of 2';
    assert.deepEqual(
      readQuestionReply(reply(h, { selected: ['About 10k, in one region'], freeText: null, skipped: false }), h),
      {
        kind: 'answered',
        command: { kind: 'answer', text: 'About 10k, in one region' },
      },
    );
    assert.deepEqual(
      readQuestionReply(reply(h, { selected: ['About 10k'], freeText: ' 2 million ', skipped: false }), h),
      {
        kind: 'answered',
        command: { kind: 'answer', text: '2 million' },
      },
    );
    assert.deepEqual(readQuestionReply(reply(h, { selected: [], freeText: null, skipped: true }), h), {
      kind: 'skipped',
      unavailable: false,
    });
    const autopilot = {
      selected: [],
      freeText:
        'The user is not available to respond and will review your work later. Work autonomously and make good decisions.',
      skipped: false,
    };
    assert.deepEqual(readQuestionReply(reply(h, autopilot), h), { kind: 'skipped', unavailable: true });
  });

  it('never guesses: another header, an empty answer or text that is not the tool reply is a skip', () => {
    const h = 'Question 1 of 1';
    assert.equal(readQuestionReply(reply('Question 2 of 2', { selected: ['x'] }), h).kind, 'skipped');
    assert.equal(readQuestionReply(reply(h, { selected: [''], freeText: '  ' }), h).kind, 'skipped');
    assert.equal(readQuestionReply('The tool failed', h).kind, 'skipped');
  });

  it('records the recommended answer in full when its option label was cut to the tool limit', () => {
    const recommended = 'x'.repeat(250);
    const h = 'Question 1 of 1';
    const got = readQuestionReply(reply(h, { selected: ['x'.repeat(200)] }), h, recommended);
    assert.deepEqual(got, { kind: 'answered', command: { kind: 'answer', text: recommended } });
  });
});
