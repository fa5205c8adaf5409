import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { PersonaContract } from '../../../../src/core/personas/contract';
import { normalizeLabel, personaLabels } from '../../../../src/core/personas/labels';
import { loadPersonas, type PersonaRegistry, type PersonaSource } from '../../../../src/core/personas/registry';
import { memoryPersonaSource, nodePersonaSource, REPO_ROOT } from '../../../support/nodePersonaSource';

const WORKSPACE_FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'personas', 'workspace');

function persona(id: string, name = id, aliases: readonly string[] = []): string {
  const aliasLines = aliases.length > 0 ? `aliases: [${aliases.join(', ')}]\n` : '';
  return (
    `---\nid: ${id}\nname: ${name}\nrole: Does ${id} things.\nexpertise: [${id}]\nrelevantTo: [general]\n` +
    `tone: Plain.\ncognitiveMode: convergent\n${aliasLines}---\nInstructions for ${id}.\n`
  );
}

describe('loadPersonas', () => {
  it('lets a workspace file override a built-in by id, adds new ids and reports a malformed file', async () => {
    const registry = await loadPersonas({
      builtIn: nodePersonaSource(),
      workspace: nodePersonaSource(WORKSPACE_FIXTURES),
    });

    const security = registry.personas.find(p => p.id === 'security-expert');
    assert.equal(security?.origin, 'workspace');
    assert.equal(security?.path, 'test/fixtures/personas/workspace/security-expert.md');
    assert.match(security?.instructions ?? '', /SEC-7/);
    assert.equal(
      registry.personas.filter(p => p.id === 'security-expert').length,
      1,
      'the built-in is replaced, not kept',
    );

    const dba = registry.personas.find(p => p.id === 'database-administrator');
    assert.equal(dba?.origin, 'workspace');
    assert.equal(registry.personas.at(-1)?.id, 'database-administrator', 'new personas come after the built-ins');

    const architect = registry.personas.find(p => p.id === 'software-architect');
    assert.equal(architect?.origin, 'builtIn');
    assert.equal(architect?.path, 'personas/software-architect.md');

    assert.equal(
      registry.personas.some(p => p.id === 'broken-persona'),
      false,
    );
    assert.deepEqual(
      registry.problems.map(p => p.message),
      [
        'test/fixtures/personas/workspace/broken.md: field "cognitiveMode": Use one of `divergent`, `convergent` (found `sideways`).',
      ],
    );
    assert.equal(registry.problems[0]?.kind, 'invalidFile');
    assert.equal(registry.problems[0]?.origin, 'workspace');
  });

  it('keeps the override at the built-in position so the catalog order stays stable', async () => {
    const registry = await loadPersonas({
      builtIn: memoryPersonaSource({
        'personas/a.md': persona('a'),
        'personas/b.md': persona('b'),
        'personas/c.md': persona('c'),
      }),
      workspace: memoryPersonaSource({ 'ws/new.md': persona('new'), 'ws/b.md': persona('b', 'Better B') }),
    });
    assert.deepEqual(
      registry.personas.map(p => `${p.id}:${p.origin}`),
      ['a:builtIn', 'b:workspace', 'c:builtIn', 'new:workspace'],
    );
    assert.equal(registry.personas[1]?.name, 'Better B');
  });

  it('reports a malformed built-in and still loads the other built-ins', async () => {
    const registry = await loadPersonas({
      builtIn: memoryPersonaSource({
        'personas/a.md': persona('a'),
        'personas/bad.md': 'no front matter',
        'personas/c.md': persona('c'),
      }),
    });
    assert.deepEqual(
      registry.personas.map(p => p.id),
      ['a', 'c'],
    );
    assert.equal(registry.problems.length, 1);
    assert.deepEqual(
      { kind: registry.problems[0]?.kind, origin: registry.problems[0]?.origin },
      { kind: 'invalidFile', origin: 'builtIn' },
    );
  });

  it('reports duplicate ids within one source and keeps the first file', async () => {
    const registry = await loadPersonas({
      builtIn: memoryPersonaSource({ 'personas/a.md': persona('a') }),
      workspace: memoryPersonaSource({ 'ws/one.md': persona('x', 'First X'), 'ws/two.md': persona('x', 'Second X') }),
    });
    assert.deepEqual(
      registry.personas.map(p => p.name),
      ['a', 'First X'],
    );
    const [problem] = registry.problems;
    assert.equal(problem?.kind, 'duplicateId');
    if (problem?.kind !== 'duplicateId') return;
    assert.deepEqual(
      { id: problem.id, path: problem.path, keptPath: problem.keptPath },
      { id: 'x', path: 'ws/two.md', keptPath: 'ws/one.md' },
    );
    assert.match(problem.message, /^ws\/two\.md: field "id": "x" is already defined by ws\/one\.md/);
  });

  it('reports an unreadable workspace source and still loads the built-ins', async () => {
    const failing: PersonaSource = { list: () => Promise.reject(new Error('permission denied')) };
    const registry = await loadPersonas({
      builtIn: memoryPersonaSource({ 'personas/a.md': persona('a') }),
      workspace: failing,
    });
    assert.deepEqual(
      registry.personas.map(p => p.id),
      ['a'],
    );
    assert.deepEqual(registry.problems, [
      {
        kind: 'sourceUnavailable',
        origin: 'workspace',
        message: 'Could not read workspace personas: permission denied',
      },
    ]);
  });

  it('lists a missing workspace folder as no personas, without a problem', async () => {
    const registry = await loadPersonas({
      builtIn: memoryPersonaSource({ 'personas/a.md': persona('a') }),
      workspace: nodePersonaSource(join(REPO_ROOT, 'does-not-exist')),
    });
    assert.deepEqual(registry.problems, []);
    assert.equal(registry.personas.length, 1);
  });
});

/** A persona by id, name or alias, as the labels rank them (id before name before alias). */
function findPersona(registry: PersonaRegistry, query: string): PersonaContract | undefined {
  const wanted = normalizeLabel(query);
  return wanted === '' ? undefined : personaLabels(registry.personas).find(entry => entry.label === wanted)?.persona;
}

describe('persona labels', () => {
  const registryPromise = loadPersonas({
    builtIn: memoryPersonaSource({
      'a.md': persona('security-expert', 'Security Expert', ['security', '"sec expert"']),
      'b.md': persona('software-architect', 'Software Architect', ['architect']),
      'c.md': persona('architect', 'Architect Too'),
    }),
  });

  it('finds by id, display name or alias, ignoring case, hyphens and extra spaces', async () => {
    const registry = await registryPromise;
    for (const query of [
      'security-expert',
      'Security Expert',
      'SECURITY',
      'Sec  Expert',
      'security_expert',
      '  security expert ',
    ]) {
      assert.equal(findPersona(registry, query)?.id, 'security-expert', query);
    }
  });

  it('prefers an id over another persona alias, and finds nothing for unknown or empty names', async () => {
    const registry = await registryPromise;
    assert.equal(findPersona(registry, 'architect')?.id, 'architect');
    assert.equal(findPersona(registry, 'Software Architect')?.id, 'software-architect');
    assert.equal(findPersona(registry, 'lawyer'), undefined);
    assert.equal(findPersona(registry, '  '), undefined);
  });
});

describe('hostile persona files', () => {
  const bomb = [
    '---',
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'id: bomb',
    '---',
    'Boom.',
  ].join('\n');

  it('an alias bomb, a self-referencing alias, a huge body and an unreadable file are each reported with their path; every other persona loads', async () => {
    const started = Date.now();
    const registry = await loadPersonas({
      builtIn: nodePersonaSource(),
      workspace: {
        list: async () => [
          { path: '.council/personas/bomb.md', text: bomb },
          { path: '.council/personas/loop.md', text: '---\nid: &x loop\nmeta: &m {self: *m}\n---\nLoop.\n' },
          { path: '.council/personas/huge.md', text: persona('huge').replace('Instructions', 'x'.repeat(20_000_000)) },
          { path: '.council/personas/utf16.md', text: '', unreadable: '.council/personas/utf16.md is UTF-16.' },
          { path: '.council/personas/dba.md', text: persona('dba') },
        ],
      },
    });
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
    const messages = registry.problems.map(p => p.message);
    assert.match(messages.find(m => m.startsWith('.council/personas/bomb.md')) ?? '', /aliases .* expand too far/);
    assert.match(messages.find(m => m.startsWith('.council/personas/loop.md')) ?? '', /refer to themselves/);
    assert.match(
      messages.find(m => m.startsWith('.council/personas/huge.md')) ?? '',
      /has 20,000,\d{3} characters; a persona may have at most 32,000/,
    );
    assert.ok(messages.includes('.council/personas/utf16.md is UTF-16.'));
    const ids = registry.personas.map(p => p.id);
    assert.ok(ids.includes('security-expert') && ids.includes('dba'), ids.join(', '));
  });
});
