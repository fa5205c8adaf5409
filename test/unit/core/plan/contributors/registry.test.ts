import { strict as assert } from 'node:assert';
import { InvalidContributorError, PromptContributorRegistry } from '../../../../../src/core/plan/contributors/registry';
import type { AgentType } from '../../../../../src/core/plan/schemas/agentType';
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

  it('accepts priorities 0 and 1000 and rejects anything outside or fractional', () => {
    const registry = new PromptContributorRegistry().register(fixed('min', 0, 'x')).register(fixed('max', 1000, 'x'));
    assert.equal(registry.forAgent('merger').length, 2);
    for (const priority of [-1, 1001, 2.5, Number.NaN]) {
      assert.throws(() => registry.register(fixed(`p${priority}`, priority, 'x')), InvalidContributorError);
    }
  });

  it('rejects a blank name, no agent types, and unknown agent types', () => {
    const registry = new PromptContributorRegistry();
    assert.throws(() => registry.register(fixed(' ', 1, 'x')), /needs a name/);
    assert.throws(() => registry.register(fixed('none', 1, 'x', [])), /applies to no agent type/);
    assert.throws(
      () => registry.register(fixed('bad', 1, 'x', ['janitor' as AgentType])),
      /unknown agent types: janitor/,
    );
  });
});
