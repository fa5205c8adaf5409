import { strict as assert } from 'node:assert';
import { findDependencyCycle } from '../../../../../src/core/plan/schemas/dependencyGraph';

const t = (ticketId: string, dependencies: string[] = []) => ({ ticketId, dependencies });
const edge = (fromTicketId: string, toTicketId: string) => ({ fromTicketId, toTicketId });

describe('findDependencyCycle', () => {
  it('finds none in a chain or a diamond', () => {
    assert.equal(findDependencyCycle([t('A'), t('B', ['A']), t('C', ['B'])], []), undefined);
    assert.equal(findDependencyCycle([t('A'), t('B', ['A']), t('C', ['A']), t('D', ['B', 'C'])], []), undefined);
  });

  it('returns the cycle as a closed path', () => {
    assert.deepEqual(findDependencyCycle([t('A', ['B']), t('B', ['A'])], []), ['A', 'B', 'A']);
  });

  it('combines ticket dependencies with explicit edges', () => {
    // B waits for A (dependency), C waits for B (edge), A waits for C (edge): A -> B -> C -> A.
    const cycle = findDependencyCycle([t('A'), t('B', ['A']), t('C')], [edge('B', 'C'), edge('C', 'A')]);
    assert.deepEqual(cycle, ['A', 'B', 'C', 'A']);
  });

  it('reports only the cycle, not the path that led into it', () => {
    const cycle = findDependencyCycle([t('S'), t('X', ['S', 'Y']), t('Y', ['X'])], []);
    assert.deepEqual(cycle, ['X', 'Y', 'X']);
  });

  it('treats a self edge as a cycle', () => {
    assert.deepEqual(findDependencyCycle([t('A')], [edge('A', 'A')]), ['A', 'A']);
  });
});
