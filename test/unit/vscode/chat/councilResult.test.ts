import * as assert from 'node:assert/strict';
import { newCouncilSession } from '../../../../src/core/council/councilTurn';
import { councilMetadata, MAX_METADATA_LOG_CHARS } from '../../../../src/vscode/chat/councilResult';
import { counterIds, steppingClock } from '../../../support/councilHarness';

const deps = { clock: steppingClock(), ids: counterIds() };

describe('council result metadata', () => {
  it('carries a small session log, so the thread survives cleared storage', () => {
    const log = newCouncilSession({ request: 'Short', userId: 'u', limits: {} }, deps);
    assert.deepEqual(councilMetadata(log).stored, log.stored);
  });

  it('leaves a large log to workspace storage: every response keeps its metadata in the chat history', () => {
    const log = newCouncilSession({ request: 'x'.repeat(MAX_METADATA_LOG_CHARS), userId: 'u', limits: {} }, deps);
    const metadata = councilMetadata(log);
    assert.equal(metadata.stored, undefined);
    assert.equal(metadata.sessionId, log.sessionId);
  });

  it('offers Try again only for a turn that stopped early in a resumable state', () => {
    const log = newCouncilSession({ request: 'Q', userId: 'u', limits: {} }, deps);
    const retry = (failed: boolean) => councilMetadata(log, failed).next?.some(step => step.kind === 'retry');
    assert.equal(retry(true), true);
    assert.equal(retry(false), false);
  });
});
