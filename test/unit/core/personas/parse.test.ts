import { strict as assert } from 'node:assert';
import { parsePersonaFile, type PersonaFileError } from '../../../../src/core/personas/parse';
import { preferredModels } from '../../../../src/core/personas/contract';

const PATH = '.council/personas/dba.md';

const VALID_FIELDS: Readonly<Record<string, string>> = {
  id: 'id: database-administrator',
  name: 'name: Database Administrator',
  role: 'role: Guards schema design and migrations.',
  expertise: 'expertise:\n  - PostgreSQL\n  - migrations',
  relevantTo: 'relevantTo: [data, performance]',
  tone: 'tone: Careful.',
  cognitiveMode: 'cognitiveMode: convergent',
  aliases: 'aliases: [dba]',
};

/** A persona file with some front-matter lines replaced (undefined removes the field). */
function personaFile(
  overrides: Readonly<Record<string, string | undefined>> = {},
  body = 'Check locking on every migration.',
): string {
  const fields = { ...VALID_FIELDS, ...overrides };
  const yaml = Object.values(fields)
    .filter((line): line is string => line !== undefined)
    .join('\n');
  return `---\n${yaml}\n---\n${body}\n`;
}

function errorOf(text: string): PersonaFileError {
  const result = parsePersonaFile(PATH, text);
  assert.equal(result.ok, false, 'expected the file to be rejected');
  if (result.ok) throw new Error('unreachable');
  assert.equal(result.error.path, PATH);
  assert.ok(
    result.error.message.startsWith(`${PATH}: `),
    `message should start with the path: ${result.error.message}`,
  );
  return result.error;
}

describe('parsePersonaFile', () => {
  it('parses front matter and trims the body into instructions', () => {
    const result = parsePersonaFile(PATH, personaFile({}, '\n\n# DBA\nCheck locking.\n\n'));
    assert.ok(result.ok);
    assert.deepEqual(result.persona, {
      id: 'database-administrator',
      name: 'Database Administrator',
      role: 'Guards schema design and migrations.',
      expertise: ['PostgreSQL', 'migrations'],
      relevantTo: ['data', 'performance'],
      tone: 'Careful.',
      cognitiveMode: 'convergent',
      aliases: ['dba'],
      instructions: '# DBA\nCheck locking.',
    });
  });

  it('accepts CRLF line endings, a BOM and no aliases', () => {
    const text = '\uFEFF' + personaFile({ aliases: undefined }).replace(/\n/g, '\r\n');
    const result = parsePersonaFile(PATH, text);
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    assert.equal(result.persona.aliases, undefined);
    assert.equal(result.persona.cognitiveMode, 'convergent');
  });

  it('names the file and field for a wrong enum value, quoting what was written', () => {
    const error = errorOf(personaFile({ cognitiveMode: 'cognitiveMode: sideways' }));
    assert.equal(error.field, 'cognitiveMode');
    assert.equal(
      error.message,
      `${PATH}: field "cognitiveMode": Use one of \`divergent\`, \`convergent\` (found \`sideways\`).`,
    );
  });

  for (const field of ['id', 'name', 'role', 'expertise', 'relevantTo', 'tone', 'cognitiveMode']) {
    it(`reports the required field "${field}" when it is missing`, () => {
      const error = errorOf(personaFile({ [field]: undefined }));
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`field "${field}": Missing \`${field}\`: add it\\.`));
    });
  }

  it('rejects an id that is not kebab-case', () => {
    const error = errorOf(personaFile({ id: 'id: Database_Admin' }));
    assert.equal(error.field, 'id');
    assert.match(error.message, /kebab-case.*\(found `Database_Admin`\)/);
  });

  it('rejects an empty name and a blank tone', () => {
    assert.equal(errorOf(personaFile({ name: 'name: ""' })).field, 'name');
    const tone = errorOf(personaFile({ tone: 'tone: "   "' }));
    assert.equal(tone.field, 'tone');
    assert.match(tone.message, /Use at least 1 character \(found `   `\)/);
  });

  it('rejects an empty expertise list and a string where a list belongs', () => {
    const empty = errorOf(personaFile({ expertise: 'expertise: []' }));
    assert.equal(empty.field, 'expertise');
    assert.match(empty.message, /Use at least 1 item \(found 0\)/);
    const scalar = errorOf(personaFile({ expertise: 'expertise: PostgreSQL' }));
    assert.equal(scalar.field, 'expertise');
    assert.match(scalar.message, /Expected a list, found the text `PostgreSQL`/);
  });

  it('points at the offending entry of relevantTo and lists the allowed classifications', () => {
    const error = errorOf(personaFile({ relevantTo: 'relevantTo: [data, frontend]' }));
    assert.equal(error.field, 'relevantTo[1]');
    assert.match(error.message, /Use one of `architecture`, .*`general` \(found `frontend`\)/);
  });

  it('rejects a non-text alias and a non-text role', () => {
    const alias = errorOf(personaFile({ aliases: 'aliases: [dba, 42]' }));
    assert.equal(alias.field, 'aliases[1]');
    assert.match(alias.message, /Expected text, found the number `42`/);
    assert.equal(errorOf(personaFile({ role: 'role: [a, b]' })).field, 'role');
  });

  it('rejects an unknown field, which is usually a typo, and lists the known ones', () => {
    const error = errorOf(personaFile({ relevantTo: undefined, extra: 'relevant_to: [data]' }));
    // The missing relevantTo is reported first (schema order); fix it and the typo is reported next.
    assert.equal(error.field, 'relevantTo');
    const typo = errorOf(personaFile({ extra: 'relevant_to: [data]' }));
    assert.equal(typo.field, 'relevant_to');
    assert.match(
      typo.message,
      /Unknown field `relevant_to` \(did you mean `relevantTo`\?\).*Allowed here: `id`, `name`, `role`, `expertise`, `relevantTo`, `tone`, `cognitiveMode`, `aliases`, `model`\./,
    );
  });

  it('reports missing front matter', () => {
    const error = errorOf('# Just markdown\nNo front matter here.');
    assert.equal(error.field, 'frontMatter');
    assert.match(error.message, /^\.council\/personas\/dba\.md: front matter: missing/);
  });

  it('reports front matter that is never closed', () => {
    const error = errorOf('---\nid: dba\nname: DBA\n');
    assert.equal(error.field, 'frontMatter');
    assert.match(error.message, /not closed/);
  });

  it('reports invalid YAML with its line number in the file', () => {
    // An unquoted ": " inside a value is the typical authoring mistake.
    const error = errorOf('---\nid: dba\nrole: Guards schemas: and migrations\n---\nBody.\n');
    assert.equal(error.field, 'frontMatter');
    assert.match(error.message, /front matter: invalid YAML at line 3: Nested mappings/);
  });

  it('reports duplicate YAML keys as invalid YAML', () => {
    const error = errorOf(personaFile({ tone: 'tone: a\ntone: b' }));
    assert.equal(error.field, 'frontMatter');
    assert.match(error.message, /invalid YAML at line \d+: Map keys must be unique/);
  });

  it('reports front matter that is not a set of fields', () => {
    assert.match(errorOf('---\n- a\n- b\n---\nBody.').message, /front matter: must be YAML fields/);
    assert.match(errorOf('---\n---\nBody.').message, /front matter: must be YAML fields/);
  });

  it('reports an empty body as the instructions field', () => {
    const error = errorOf(personaFile({}, '  \n\n'));
    assert.equal(error.field, 'instructions');
    assert.match(error.message, /field "instructions": is empty/);
  });
});

describe('a persona file naming its model', () => {
  it('takes one model, or several in order of preference', () => {
    const one = parsePersonaFile(PATH, personaFile({ model: 'model: copilot/claude-sonnet-4' }));
    assert.ok(one.ok);
    assert.deepEqual(preferredModels(one.persona), ['copilot/claude-sonnet-4']);
    const several = parsePersonaFile(PATH, personaFile({ model: 'model: [claude-sonnet-4, gpt-4.1]' }));
    assert.ok(several.ok);
    assert.deepEqual(preferredModels(several.persona), ['claude-sonnet-4', 'gpt-4.1']);
    const none = parsePersonaFile(PATH, personaFile());
    assert.ok(none.ok);
    assert.deepEqual(preferredModels(none.persona), []);
  });

  it('reports a model that is not a model name, with the file and the field', () => {
    const error = errorOf(personaFile({ model: 'model: "claude sonnet, please"' }));
    assert.equal(error.field, 'model');
    assert.match(error.message, /model family such as "gpt-4\.1"/);
  });
});
