import { strict as assert } from 'node:assert';
import { askCouncil, type QuestionReply } from '../../../src/cli/askCouncil';
import type { ClarificationQuestion } from '../../../src/core/session/clarification';
import type { QuestionPosition } from '../../../src/core/council/questionPosition';
import { councilRig } from '../../support/councilHarness';

describe('council ask: a session from a decision to its answer, through the core turns', () => {
  it('asks the questions one at a time; an answer is recorded, a skip becomes a logged assumption', async () => {
    const rig = await councilRig();
    const asked: ClarificationQuestion[] = [];
    const replies: QuestionReply[] = [{ kind: 'answer', text: 'About 50 requests a second.' }, { kind: 'skip' }];
    const { log, stopped } = await askCouncil({
      decision: 'Should we use PostgreSQL or MongoDB?',
      deps: rig.deps,
      ask: question => {
        asked.push(question);
        return Promise.resolve(replies.shift() ?? { kind: 'accept' });
      },
    });
    assert.equal(stopped, undefined);
    assert.equal(log.state, 'completed');
    assert.ok(asked.length >= 2, `asked ${asked.length} questions`);
    assert.ok(
      asked.every(q => q.recommendedAnswer),
      'each question came with its recommended answer',
    );
    const context = log.snapshot.context;
    assert.ok(context.answers.some(a => a.answer === 'About 50 requests a second.' && !a.skipCommand));
    assert.ok(
      context.assumptionLog.some(a => a.relatedQuestionId === asked[1]?.questionId),
      'the skipped question’s recommended answer is an assumption',
    );
    assert.equal(rig.persisted.at(-1)?.events.length, log.stored.events.length, 'every step was saved');
  });

  it('without a terminal (--yes) never asks: every recommended answer is an assumption', async () => {
    const rig = await councilRig();
    const { log, stopped } = await askCouncil({ decision: 'Should we use PostgreSQL or MongoDB?', deps: rig.deps });
    assert.equal(stopped, undefined);
    assert.equal(log.state, 'completed');
    assert.ok(
      log.snapshot.context.answers.every(a => a.skipCommand),
      'nothing was answered in anyone’s words',
    );
    assert.ok(log.snapshot.context.assumptionLog.length > 0);
    assert.match(rig.output.text, /### Assumptions\n\n- Assumed: Recommended answer 1\.1/);
    assert.ok(log.snapshot.context.debateCycles > 0, 'the council still debated');
  });

  it("a door that shows questions itself gets each once with its position, and never the chat's card", async () => {
    const rig = await councilRig();
    const shown: { question: string; round: number; left: number }[] = [];
    const output = {
      progress: (message: string) => rig.output.progress(message),
      markdown: (text: string) => rig.output.markdown(text),
      question: (question: ClarificationQuestion, position: QuestionPosition) =>
        shown.push({ question: question.question, round: position.round, left: position.left }),
    };
    const asked: string[] = [];
    const { log } = await askCouncil({
      decision: 'Should we use PostgreSQL or MongoDB?',
      deps: { ...rig.deps, output },
      ask: question => {
        asked.push(question.question);
        return Promise.resolve({ kind: 'accept' });
      },
    });
    assert.equal(log.state, 'completed');
    assert.deepEqual(
      shown.map(s => s.question),
      asked,
      'each question the door asked was shown to it once, in order',
    );
    assert.equal(shown[0]?.round, 1);
    assert.equal(shown[0]?.left, asked.length - 1);
    assert.doesNotMatch(rig.output.text, /Reply with your answer|button/);
  });
});
