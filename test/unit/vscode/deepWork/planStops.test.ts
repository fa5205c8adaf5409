import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledError, LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { PipelineBoard } from '../../../../src/core/plan/pipelineBoard';
import { savedProgress } from '../../../../src/vscode/deepWork/planSummary';
import { describeTurnStop } from '../../../../src/core/llm/turnStop';

/** The error box of a failed /plan run (as the handler builds it); undefined for Stop. */
function planFailure(error: unknown, board: PipelineBoard) {
  const stop = describeTurnStop(error, { kept: savedProgress(board), button: 'Try again' });
  return stop.kind === 'failed' ? stop : undefined;
}

/** The stages' records of the stored v1 fixture: discovery and planning done. */
const state = PipelineBoard.parse(
  (
    JSON.parse(readFileSync(join(__dirname, '../../../fixtures/storage/plan-run.v1.json'), 'utf8')) as {
      state: object;
    }
  ).state,
);

const VALIDATOR_TEXT =
  'fileReferences[1].endLine: endLine 5491272353579008 is before startLine 7; diagrams[0].edges[0].fromNodeId: unknown node "#"';

describe('/plan: how a run that stops reads in chat', () => {
  it('a model failure is an error box with what to do; the provider detail is for the log', () => {
    const error = new LanguageModelFailure('quotaExceeded', 'You have exceeded your premium request allowance');
    const failure = planFailure(error, state);
    assert.match(failure?.message ?? '', /usage for this model is used up.*Progress up to \w+ is saved\.$/);
    assert.match(failure?.detail ?? '', /premium request allowance/);
  });

  it('a reply that stayed in the wrong format never shows the validator output in chat', () => {
    const error = new LanguageModelFailure('malformedReply', VALIDATOR_TEXT);
    const failure = planFailure(error, state);
    assert.ok(failure, 'an error box');
    assert.ok(!failure.message.includes('endLine'), failure.message);
    assert.match(failure.message, /wrong format.*Try again.*Progress up to \w+ is saved\.$/);
    assert.match(failure.detail, /endLine 5491272353579008/);
  });

  it('Stop is not a failure: no error box', () => {
    assert.equal(planFailure(new CancelledError(), state), undefined);
    assert.equal(planFailure(new LanguageModelFailure('cancelled', 'stopped'), state), undefined);
  });
});
