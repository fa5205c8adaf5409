import { strict as assert } from 'node:assert';
import type { PersonaContract } from '../../../../src/core/personas/contract';
import { explicitPersonaNames } from '../../../../src/core/personas/naming';
import { loadPersonas } from '../../../../src/core/personas/registry';
import { nodePersonaSource } from '../../../support/nodePersonaSource';

describe('explicitPersonaNames', () => {
  let personas: readonly PersonaContract[];
  before(async () => {
    personas = (await loadPersonas({ builtIn: nodePersonaSource() })).personas;
  });

  const ids = (request: string): readonly string[] => explicitPersonaNames(request, personas).personas.map(p => p.id);

  describe('recognises explicit naming', () => {
    const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
      [
        'ask the security expert and the architect whether we should store refresh tokens',
        ['security-expert', 'software-architect'],
      ],
      ['ask the architect - is a queue overkill here?', ['software-architect']],
      [
        '@council ask the security expert and the architect about session storage',
        ['security-expert', 'software-architect'],
      ],
      ['with Security Expert, Architect: how should we store API keys?', ['security-expert', 'software-architect']],
      ['Using the PM & the QA engineer: is this feature ready to ship?', ['product-manager', 'qa-engineer']],
      ['Ask the architect: monolith or services?', ['software-architect']],
      ['Please consult the DevOps engineer on our rollback plan.', ['devops-engineer']],
      ['ask security to review the login flow', ['security-expert']],
      ["ask the devil's advocate, then summarise", ['devils-advocate']],
      ['ask the Devil’s Advocate what could go wrong', ['devils-advocate']],
      ['ask SRE, perf and QA if the rollout is safe', ['devops-engineer', 'performance-engineer', 'qa-engineer']],
      ['@security-expert @senior-developer review this diff', ['security-expert', 'senior-developer']],
      ['ask the senior-developer: how do I split this class?', ['senior-developer']],
      ['Ask the PM whether we need this, and ask the PM again later', ['product-manager']],
    ];
    for (const [request, expected] of cases) {
      it(JSON.stringify(request), () => assert.deepEqual(ids(request), expected));
    }
  });

  describe('does not treat ordinary words as an override', () => {
    const requests = [
      'improve security of login',
      'How do I improve performance and security of our API?',
      'We need better testing for the architecture module',
      'ask performance questions in the interview',
      'ask security and performance questions during review',
      'Ask for a security review of the product page',
      'Should the developer or the architect own this decision?',
      'with security in mind: how do I hash passwords?',
      'Can you ask about the product roadmap?',
      'Email me at someone@example.com about the qa plan',
      'ask the user for their password',
      'ask security-minded colleagues - they know',
      'ask the architecture-team lead',
      'Let us play devil’s advocate here',
    ];
    for (const request of requests) {
      it(JSON.stringify(request), () => assert.deepEqual(ids(request), []));
    }
  });

  it('keeps the order the user named them in, across forms', () => {
    assert.deepEqual(ids('@qa-engineer please look, and ask the architect whether the design holds'), [
      'qa-engineer',
      'software-architect',
    ]);
  });

  it('reports header names that match no persona once another name in the header does', () => {
    const named = explicitPersonaNames('with the security expert and a lawyer: can we log IP addresses?', personas);
    assert.deepEqual(
      named.personas.map(p => p.id),
      ['security-expert'],
    );
    assert.deepEqual(named.unknownNames, ['lawyer']);
  });

  it('does not report a header that names no persona at all (it was just a sentence)', () => {
    const named = explicitPersonaNames('with React and Redux: how do I share state?', personas);
    assert.deepEqual(named, { personas: [], unknownNames: [] });
  });

  it('matches workspace personas by their own aliases', () => {
    const dba: PersonaContract = {
      id: 'database-administrator',
      name: 'Database Administrator',
      role: 'Guards schemas.',
      expertise: ['PostgreSQL'],
      relevantTo: ['data'],
      tone: 'Careful.',
      cognitiveMode: 'convergent',
      aliases: ['dba'],
      instructions: 'Check locks.',
      origin: 'workspace',
      path: '.council/personas/dba.md',
    };
    assert.deepEqual(
      explicitPersonaNames('ask the DBA and the architect if this migration locks', [...personas, dba]).personas.map(
        p => p.id,
      ),
      ['database-administrator', 'software-architect'],
    );
  });
});
