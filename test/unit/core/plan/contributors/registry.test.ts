import { strict as assert } from 'node:assert';
import { PromptContributorRegistry } from '../../../../../src/core/plan/contributors/registry';
import { fixed } from './support';

describe('PromptContributorRegistry', () => {
  it('returns the contributors for an agent type by ascending priority, ties by name', () => {
    const registry = new PromptContributorRegistry()
      .register(fixed('late', 900, 'x'))
      .register(fixed('b-early', 100, 'x'))
      .register(fixed('a-early', 100, 'x'))
      .register(fixed('planner-only', 50, 'x', ['planning-agent']));
    assert.deepEqual(
      registry.forAgent('discovery-agent').map(c => c.name),
      ['a-early', 'b-early', 'late'],
    );
    assert.deepEqual(
      registry.forAgent('planning-agent').map(c => c.name),
      ['planner-only', 'a-early', 'b-early', 'late'],
    );
  });

  it('rejects a duplicate name', () => {
    const registry = new PromptContributorRegistry().register(fixed('facts', 1, 'x'));
    assert.throws(() => registry.register(fixed('facts', 2, 'y')), /already registered/);
    assert.equal(registry.forAgent('review').length, 1);
  });

  it('refuses a priority outside 0..1000 or not a whole number, saying what to give', () => {
    for (const priority of [-1, 1001, 2.5, Number.NaN])
      assert.throws(
        () => new PromptContributorRegistry().register(fixed('odd', priority, 'x')),
        /has priority .*; give it a whole number from 0 to 1000/,
      );
    assert.equal(new PromptContributorRegistry().register(fixed('edge', 1000, 'x')).forAgent('review').length, 1);
  });
});
