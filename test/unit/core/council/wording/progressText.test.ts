import { strict as assert } from 'node:assert';
import {
  concluding,
  economyCycleProgress,
  moderatorReading,
  thoroughCycleProgress,
} from '../../../../../src/core/council/wording/progressText';

describe('progressText: what the council says it is doing', () => {
  it('names the personas as a list, with the verb agreeing', () => {
    assert.equal(economyCycleProgress(1, 3, ['Architect']), 'Independent drafts: Architect is thinking…');
    assert.equal(
      economyCycleProgress(1, 3, ['Architect', 'Developer', 'Security Expert']),
      'Independent drafts: Architect, Developer and Security Expert are thinking…',
    );
    assert.equal(concluding(['Architect', 'Developer']), 'Architect, Developer are concluding…');
  });

  it('says which cycle of how many, and who speaks in it, per protocol', () => {
    assert.equal(
      economyCycleProgress(2, 3, ['Architect', 'Developer']),
      'Debate cycle 2 of at most 3, for those still in disagreement: Architect and Developer are thinking…',
    );
    assert.equal(thoroughCycleProgress(2, 3, ['Architect']), 'Debate cycle 2 of at most 3: Architect is thinking…');
    assert.equal(moderatorReading(2), 'Moderator is reading cycle 2…');
  });
});
