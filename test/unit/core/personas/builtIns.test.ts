import { strict as assert } from 'node:assert';
import { REQUEST_CLASSIFICATIONS } from '../../../../src/core/personas/contract';
import { normalizeLabel } from '../../../../src/core/personas/labels';
import { loadPersonas, type PersonaRegistry } from '../../../../src/core/personas/registry';
import { nodePersonaSource } from '../../../support/nodePersonaSource';

describe('built-in personas (personas/*.md)', () => {
  let registry: PersonaRegistry;
  before(async () => {
    registry = await loadPersonas({ builtIn: nodePersonaSource() });
  });

  it('all parse without problems', () => {
    assert.deepEqual(
      registry.problems.map(p => p.message),
      [],
    );
    assert.ok(registry.personas.length >= 6, `only ${registry.personas.length} personas`);
  });

  it('cover the council roles the product promises', () => {
    const byId = new Map(registry.personas.map(p => [p.id, p]));
    for (const id of [
      'senior-developer',
      'security-expert',
      'software-architect',
      'product-manager',
      'qa-engineer',
      'devops-engineer',
      'performance-engineer',
      'devils-advocate',
    ]) {
      assert.ok(byId.has(id), `missing ${id}`);
    }
    assert.equal(byId.get('senior-developer')?.cognitiveMode, 'convergent');
    assert.ok(byId.get('senior-developer')?.relevantTo.includes('implementation'));
    assert.equal(byId.get('devils-advocate')?.cognitiveMode, 'divergent');
  });

  it('are stored as personas/<id>.md so the file name says which override replaces which', () => {
    for (const persona of registry.personas) assert.equal(persona.path, `personas/${persona.id}.md`);
  });

  it('have distinct names, and no id, name or alias that points at two personas', () => {
    const owner = new Map<string, string>();
    for (const persona of registry.personas) {
      for (const label of new Set([persona.id, persona.name, ...(persona.aliases ?? [])].map(normalizeLabel))) {
        const other = owner.get(label);
        assert.ok(other === undefined, `"${label}" names both ${other} and ${persona.id}`);
        owner.set(label, persona.id);
      }
    }
  });

  it('have distinct relevance sets and non-overlapping expertise', () => {
    const relevance = registry.personas.map(p => [...p.relevantTo].sort().join(','));
    assert.equal(new Set(relevance).size, relevance.length, `duplicate relevantTo sets: ${relevance.join(' | ')}`);
    const expertise = registry.personas.flatMap(p => p.expertise.map(normalizeLabel));
    assert.equal(new Set(expertise).size, expertise.length);
  });

  it('together cover every request classification and both cognitive modes', () => {
    const covered = new Set(registry.personas.flatMap(p => p.relevantTo));
    assert.deepEqual(
      REQUEST_CLASSIFICATIONS.filter(c => !covered.has(c)),
      [],
    );
    assert.deepEqual(new Set(registry.personas.map(p => p.cognitiveMode)), new Set(['divergent', 'convergent']));
  });

  it('give each persona substantial instructions that say how to argue and when to concede', () => {
    for (const persona of registry.personas) {
      const words = persona.instructions.split(/\s+/).length;
      assert.ok(words >= 250, `${persona.id}: only ${words} words of instructions`);
      assert.match(persona.instructions, /## How you argue/, persona.id);
      assert.match(persona.instructions, /## Push back when/, persona.id);
      assert.match(persona.instructions, /## Concede when/, persona.id);
      assert.match(
        persona.instructions,
        new RegExp(`You are the ${persona.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        persona.id,
      );
    }
  });
});
