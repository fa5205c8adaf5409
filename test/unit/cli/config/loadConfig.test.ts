import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from '../../../../src/cli/config/councilConfig';
import { ConfigError, loadConfig, parseConfig } from '../../../../src/cli/config/loadConfig';

const MIXED = `{
  "providers": {
    "openai": { "type": "openai" },
    "claude": { "type": "anthropic", "apiKeyEnv": "WORK_ANTHROPIC_KEY" },
    "local": { "type": "openai-compatible", "baseUrl": "http://localhost:11434/v1" }
  },
  "models": {
    "default": "openai:gpt-5-mini",
    "answer": "claude:claude-sonnet-4-5",
    "seats": {
      "security-expert": "claude:claude-sonnet-4-5",
      "devils-advocate": { "provider": "local", "model": "llama3.1:8b", "maxInputTokens": 8000 }
    }
  },
  "prices": { "llama3.1:8b": 0, "gpt-5-mini": { "input": 0.3, "output": 2.5 } },
  "limits": { "maxDollars": 0.5 }
}
`;

function rejects(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseConfig(text, '/p/.council/config.json'),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('council config file: parsing and its errors', () => {
  it('reads providers, a model per seat, the answer, prices and limits', () => {
    const config = parseConfig(MIXED, 'config.json');
    assert.equal(config.providers.claude?.apiKeyEnv, 'WORK_ANTHROPIC_KEY');
    assert.equal(config.models.seats?.['security-expert'], 'claude:claude-sonnet-4-5');
    assert.deepEqual(config.models.seats?.['devils-advocate'], {
      provider: 'local',
      model: 'llama3.1:8b',
      maxInputTokens: 8000,
    });
    assert.equal(config.limits?.maxDollars, 0.5);
  });

  it('names the line and column of text that is not JSON', () => {
    rejects('{\n  "providers": {},\n  "models": { "default": "a:b", }\n}', /config\.json:3:\d+: not valid JSON/);
  });

  it('names the line and the field of an unknown field, and says to remove or fix it', () => {
    rejects(
      '{\n  "providers": { "o": { "type": "openai" } },\n  "models": { "default": "o:gpt-5-mini", "seat": {} }\n}',
      /config\.json:3:\d+: models\.seat: unknown field "seat"\. Remove it or fix its spelling/,
    );
  });

  it('names an unknown provider type with the types there are', () => {
    rejects(
      '{\n  "providers": {\n    "m": { "type": "mistral" }\n  },\n  "models": { "default": "m:x" }\n}',
      /config\.json:3:\d+: providers\.m\.type: unknown provider type; use one of "openai", "anthropic", "google", "openai-compatible"/,
    );
  });

  it('refuses a key written in the file and says to name an environment variable instead', () => {
    rejects(
      '{\n  "providers": {\n    "o": { "type": "openai", "apiKey": "hunter2" }\n  },\n  "models": { "default": "o:m" }\n}',
      /config\.json:3:\d+: providers\.o\.apiKey: a key does not belong in the config file.*"apiKeyEnv": "ANTHROPIC_API_KEY"/,
    );
    // A key pasted where the variable's name goes is refused the same way (and never echoed).
    const pasted = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz';
    assert.throws(
      () =>
        parseConfig(
          `{ "providers": { "c": { "type": "anthropic", "apiKeyEnv": "${pasted}" } }, "models": { "default": "c:m" } }`,
          'config.json',
        ),
      (error: unknown) =>
        error instanceof ConfigError &&
        /providers\.c\.apiKeyEnv: a key does not belong/.test(error.message) &&
        !error.message.includes(pasted),
    );
  });

  it('refuses a model on a provider the file does not define, naming the ones it does', () => {
    rejects(
      '{\n  "providers": { "openai": { "type": "openai" } },\n  "models": {\n    "default": "openai:gpt-5-mini",\n    "seats": { "qa-engineer": "gemini:gemini-2.5-pro" }\n  }\n}',
      /config\.json:5:\d+: models\.seats\.qa-engineer: names the provider "gemini", which "providers" does not define \(it has "openai"\)/,
    );
  });

  it("asks an openai-compatible provider for its baseUrl, with the local servers' addresses", () => {
    rejects(
      '{ "providers": { "l": { "type": "openai-compatible" } }, "models": { "default": "l:m" } }',
      /providers\.l: an openai-compatible provider needs "baseUrl".*11434/,
    );
  });

  it('says a required field is missing', () => {
    rejects('{ "providers": {} }', /: models: missing; it is required/);
  });

  it('publishes the JSON Schema generated from the zod schema (npm run schemas)', () => {
    const published = readFileSync(join(__dirname, '..', '..', '..', '..', CONFIG_SCHEMA_FILE), 'utf8');
    assert.equal(published, configJsonSchemaText(), 'schemas/ is stale: run npm run schemas');
    const schema = JSON.parse(published) as { properties: Record<string, unknown>; additionalProperties: boolean };
    assert.deepEqual(Object.keys(schema.properties), ['$schema', 'providers', 'models', 'prices', 'limits']);
    assert.equal(schema.additionalProperties, false);
  });
});

describe('council config file: where it is looked up', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'council-config-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  };
  const config = (model: string) =>
    `{ "providers": { "o": { "type": "openai" } }, "models": { "default": "o:${model}" } }`;

  it("takes the project's file first, then the user's (XDG_CONFIG_HOME, else ~/.config), else none", async () => {
    const project = join(root, 'project');
    const home = join(root, 'home');
    mkdirSync(project, { recursive: true });
    assert.equal(await loadConfig(project, { HOME: home }), undefined);
    write(join(home, '.config', 'council', 'config.json'), config('user-model'));
    assert.equal((await loadConfig(project, { HOME: home }))?.config.models.default, 'o:user-model');
    write(join(root, 'xdg', 'council', 'config.json'), config('xdg-model'));
    assert.equal(
      (await loadConfig(project, { HOME: home, XDG_CONFIG_HOME: join(root, 'xdg') }))?.config.models.default,
      'o:xdg-model',
    );
    write(join(project, '.council', 'config.json'), config('project-model'));
    const found = await loadConfig(project, { HOME: home });
    assert.equal(found?.config.models.default, 'o:project-model');
    assert.equal(found?.file, join(project, '.council', 'config.json'));
  });
});
