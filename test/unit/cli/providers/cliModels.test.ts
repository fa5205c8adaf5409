import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../../src/cli/config/loadConfig';
import { cliModels } from '../../../../src/cli/providers/cliModels';
import { environmentModel } from '../../../../src/cli/providers/environmentModel';
import { providerModel } from '../../../../src/cli/providers/providerModels';
import type { PersonaContract } from '../../../../src/core/personas/contract';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';

const persona = (id: string) => ({ id }) as PersonaContract;
const PERSONAS = ['security-expert', 'devils-advocate', 'qa-engineer'];

describe('council command: the provider the environment chooses (no config file)', () => {
  it('chooses none when no provider key is set', () => {
    assert.equal(environmentModel({}, undefined), undefined);
    assert.equal(environmentModel({ OPENAI_API_KEY: '  ' }, 'gpt-5'), undefined);
  });

  it('takes OpenAI first, each provider with its default model, and --model as the model', () => {
    assert.deepEqual(environmentModel({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a' }, undefined), {
      providerName: 'openai',
      provider: { type: 'openai' },
      modelId: 'gpt-5-mini',
    });
    assert.equal(environmentModel({ ANTHROPIC_API_KEY: 'a' }, undefined)?.modelId, 'claude-sonnet-4-5');
    assert.equal(environmentModel({ GOOGLE_GENERATIVE_AI_API_KEY: 'g' }, 'gemini-2.5-pro')?.provider.type, 'google');
  });

  it("picks the family a --model names when that family's key is set", () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a', GOOGLE_GENERATIVE_AI_API_KEY: 'g' };
    assert.equal(environmentModel(env, 'claude-opus-4-7')?.provider.type, 'anthropic');
    assert.equal(environmentModel(env, 'gemini-2.5-pro')?.provider.type, 'google');
    // No Anthropic key: the first provider with a key gets the name as it is.
    assert.equal(environmentModel({ OPENAI_API_KEY: 'k' }, 'claude-opus-4-7')?.provider.type, 'openai');
  });

  it('sends every model to OPENAI_BASE_URL when it is set (Ollama, LM Studio, OpenRouter)', () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a', OPENAI_BASE_URL: 'http://localhost:11434/v1' };
    assert.deepEqual(environmentModel(env, 'llama3.1:8b'), {
      providerName: 'openai-compatible',
      provider: { type: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', apiKeyEnv: 'OPENAI_API_KEY' },
      modelId: 'llama3.1:8b',
    });
  });
});

describe("council command: a provider's model", () => {
  it('names the variable to set when the key is missing', () => {
    assert.throws(
      () =>
        providerModel(
          { providerName: 'work', provider: { type: 'anthropic', apiKeyEnv: 'WORK_KEY' }, modelId: 'm' },
          {},
        ),
      (error: unknown) =>
        error instanceof LanguageModelFailure &&
        error.kind === 'noPermissions' &&
        /provider "work".*set the environment variable WORK_KEY/.test(error.message),
    );
  });

  it('tells the vendor prices are looked up by; a server on this machine is local (free)', () => {
    const env = { ANTHROPIC_API_KEY: 'a', GOOGLE_GENERATIVE_AI_API_KEY: 'g', OPENAI_API_KEY: 'o' };
    const model = (type: 'anthropic' | 'google' | 'openai') =>
      providerModel({ providerName: type, provider: { type }, modelId: 'm' }, env);
    assert.equal(model('anthropic').vendor, 'anthropic');
    assert.equal(model('anthropic').maxInputTokens, 200_000);
    assert.equal(model('google').vendor, 'google');
    assert.equal(model('openai').vendor, 'openai');
    const local = providerModel(
      {
        providerName: 'ollama',
        provider: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' },
        modelId: 'qwen3',
        maxInputTokens: 8000,
      },
      {},
    );
    assert.equal(local.vendor, 'local');
    assert.equal(local.maxInputTokens, 8000);
    const hosted = providerModel(
      {
        providerName: 'router',
        provider: {
          type: 'openai-compatible',
          baseUrl: 'https://openrouter.ai/api/v1',
          apiKeyEnv: 'OPENROUTER_API_KEY',
        },
        modelId: 'x',
      },
      { OPENROUTER_API_KEY: 'r' },
    );
    assert.equal(hosted.vendor, 'openai-compatible');
  });
});

describe('council command: models per seat from the config file', () => {
  let project: string;
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'council-models-'));
    mkdirSync(join(project, '.council'));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  const configure = (config: object) =>
    writeFileSync(join(project, '.council', 'config.json'), JSON.stringify(config, null, 2));
  const load = (environment: Record<string, string>, modelFlag?: string) =>
    cliModels({
      project,
      environment: { HOME: project, ...environment },
      ...(modelFlag ? { modelFlag } : {}),
      personaIds: PERSONAS,
      maxRequests: 12,
    });
  const providers = {
    openai: { type: 'openai' },
    claude: { type: 'anthropic' },
    local: { type: 'openai-compatible', baseUrl: 'http://localhost:1234/v1' },
  };
  const keys = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' };

  it("routes each persona to its seat's model, the answer to its own, the opening and the rest to theirs", async () => {
    configure({
      providers,
      models: {
        default: 'openai:gpt-5-mini',
        opening: 'local:qwen3',
        answer: 'claude:claude-opus-4-7',
        seats: { 'security-expert': 'claude:claude-sonnet-4-5', 'devils-advocate': 'local:qwen3' },
      },
      limits: { maxDollars: 0.75 },
    });
    const models = await load(keys);
    assert.ok(models?.roleModels);
    const seat = async (id: string) => (await models.roleModels!.forPersona(persona(id))).model;
    assert.equal((await seat('security-expert')).id, 'claude-sonnet-4-5');
    assert.equal((await seat('security-expert')).vendor, 'anthropic');
    assert.equal((await seat('devils-advocate')).vendor, 'local');
    assert.equal((await seat('qa-engineer')).id, 'gpt-5-mini');
    assert.equal((await models.roleModels.forSynthesis()).model.id, 'claude-opus-4-7');
    assert.equal(models.model.id, 'qwen3');
    // One model object per provider and model: the opening and a seat on qwen3 share it.
    assert.equal(models.model, await seat('devils-advocate'));
    // The governor counts cents.
    assert.deepEqual(models.limits, { maxRequests: 12, maxCredits: 75 });
    assert.match(models.source, /config .*\.council\/config\.json/);
  });

  it('without seats or an answer model, every call uses the default (no router)', async () => {
    configure({ providers, models: { default: 'claude:claude-sonnet-4-5' } });
    const models = await load(keys);
    assert.equal(models?.roleModels, undefined);
    assert.equal(models?.model.vendor, 'anthropic');
    assert.deepEqual(models?.limits, { maxRequests: 12 });
  });

  it('refuses a seat no persona has, listing the ids', async () => {
    configure({ providers, models: { default: 'openai:gpt-5-mini', seats: { 'security-expret': 'openai:gpt-5' } } });
    await assert.rejects(load(keys), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /models\.seats\.security-expret: no persona has the id .*"security-expert"/);
      return true;
    });
  });

  it("fails before any request when a seat's provider has no key, naming the variable", async () => {
    configure({
      providers,
      models: { default: 'openai:gpt-5-mini', seats: { 'qa-engineer': 'claude:claude-sonnet-4-5' } },
    });
    await assert.rejects(
      load({ OPENAI_API_KEY: 'o' }),
      /provider "claude".*set the environment variable ANTHROPIC_API_KEY/,
    );
  });

  it('takes --model as <provider>:<model> over the default, and asks for the provider when it has none', async () => {
    configure({ providers, models: { default: 'openai:gpt-5-mini' } });
    assert.equal((await load(keys, 'claude:claude-haiku-4-5'))?.model.id, 'claude-haiku-4-5');
    await assert.rejects(load(keys, 'gpt-5'), /--model "gpt-5": with a config file .* --model <provider>:<model id>/);
  });

  it('without a config file, the environment chooses; with no key either, none', async () => {
    assert.equal(await load({}), undefined);
    const models = await load({ ANTHROPIC_API_KEY: 'a' });
    assert.equal(models?.model.id, 'claude-sonnet-4-5');
    assert.match(models?.source ?? '', /anthropic \(from the environment\)/);
  });
});
