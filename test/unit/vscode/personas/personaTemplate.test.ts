import { strict as assert } from 'node:assert';
import { parsePersonaFile } from '../../../../src/core/personas/parse';
import {
  personaIdFromName,
  personaTemplate,
  validatePersonaName,
} from '../../../../src/vscode/personas/personaTemplate';

describe('persona template (council.createPersona)', () => {
  it('derives kebab-case ids from display names', () => {
    assert.equal(personaIdFromName('Database Administrator'), 'database-administrator');
    assert.equal(personaIdFromName('  Dr. Ünïcode (Postgres) #1 '), 'dr-unicode-postgres-1');
    assert.equal(personaIdFromName('C++/Rust Expert'), 'c-rust-expert');
    assert.equal(personaIdFromName('日本語'), '');
  });

  it('rejects names that are blank, too long or give no id', () => {
    assert.match(validatePersonaName('   ') ?? '', /Enter a name/);
    assert.match(validatePersonaName('x'.repeat(61)) ?? '', /under 60/);
    assert.match(validatePersonaName('日本語') ?? '', /letter or digit/);
    assert.equal(validatePersonaName('Database Administrator'), undefined);
  });

  for (const name of ['Database Administrator', 'Dr. "Quote": #1 - yes', "O'Brien's Reviewer", 'Ünïcode Ärchitect']) {
    it(`produces a file the persona parser accepts for ${JSON.stringify(name)}`, () => {
      const result = parsePersonaFile('.council/personas/x.md', personaTemplate(name));
      assert.ok(result.ok, result.ok ? '' : result.error.message);
      assert.equal(result.persona.id, personaIdFromName(name));
      assert.equal(result.persona.name, name.trim());
      assert.equal(result.persona.cognitiveMode, 'convergent');
      assert.deepEqual(result.persona.relevantTo, ['general']);
      assert.match(result.persona.instructions, /^You are the /);
    });
  }
});
