import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../../../src/cli/config/loadConfig';
import { CopilotModel } from '../../../../src/cli/providers/copilot/copilotModel';
import { CopilotRuntime } from '../../../../src/cli/providers/copilot/copilotRuntime';
import { findCopilotCli } from '../../../../src/cli/providers/copilot/findCopilotCli';
import { providerModel } from '../../../../src/cli/providers/providerModels';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';

/* Choosing the copilot provider: its config, and finding the user's Copilot CLI before any request. */

describe('copilot provider: config and finding Copilot CLI', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'council-copilot-path-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** An npm install's layout: bin/copilot links to the package's npm-loader.js. */
  const npmInstall = () => {
    const loader = join(folder, 'lib', 'node_modules', '@github', 'copilot', 'npm-loader.js');
    mkdirSync(join(loader, '..'), { recursive: true });
    writeFileSync(loader, '');
    mkdirSync(join(folder, 'bin'));
    symlinkSync(loader, join(folder, 'bin', 'copilot'));
    chmodSync(loader, 0o755);
    return loader;
  };

  it('finds `copilot` on the PATH through its link, so the SDK runs its loader with this Node', function () {
    if (process.platform === 'win32') this.skip();
    const loader = npmInstall();
    assert.equal(findCopilotCli('copilot', undefined, { PATH: `/nowhere:${join(folder, 'bin')}` }), loader);
  });

  it('says what to install when there is no Copilot CLI, and names a wrong cliPath or COPILOT_CLI_PATH', () => {
    assert.throws(
      () => findCopilotCli('copilot', undefined, { PATH: folder }),
      (error: unknown) =>
        error instanceof LanguageModelFailure &&
        /Copilot CLI is not installed: no `copilot` on the PATH \(provider "copilot"\)\. Install it with `npm install -g @github\/copilot`.*run `copilot login`/.test(
          error.message,
        ),
    );
    assert.throws(
      () => findCopilotCli('work', join(folder, 'missing'), { PATH: folder }),
      /Copilot CLI is not at .*missing \(the provider "work"'s cliPath\)/,
    );
    assert.throws(
      () => findCopilotCli('work', undefined, { PATH: folder, COPILOT_CLI_PATH: join(folder, 'gone') }),
      /Copilot CLI is not at .*gone \(COPILOT_CLI_PATH\)/,
    );
  });

  it('builds a Copilot model from the config, priced by the Copilot table (vendor copilot), with no key', () => {
    const loader = npmInstall();
    const model = providerModel(
      { providerName: 'gh', provider: { type: 'copilot', cliPath: loader }, modelId: 'claude-sonnet-4.6' },
      {},
    );
    assert.ok(model instanceof CopilotModel);
    assert.equal(model.vendor, 'copilot');
    assert.equal(model.id, 'claude-sonnet-4.6');
    assert.equal(model.maxInputTokens, 128_000);
  });

  it("disables the MCP servers the user configured for Copilot CLI in Council's sessions, by name", () => {
    mkdirSync(join(folder, '.copilot'));
    writeFileSync(
      join(folder, '.copilot', 'mcp-config.json'),
      JSON.stringify({ mcpServers: { playwright: { command: 'npx' }, jira: { url: 'https://example.com' } } }),
    );
    assert.deepEqual(new CopilotRuntime('copilot', { HOME: folder }).disabledMcpServers, ['playwright', 'jira']);
    assert.deepEqual(new CopilotRuntime('copilot', { COPILOT_HOME: join(folder, 'none') }).disabledMcpServers, []);
  });

  it('accepts a copilot provider in the config file and refuses a key variable or baseUrl on it', () => {
    const config = parseConfig(
      JSON.stringify({
        providers: { copilot: { type: 'copilot' }, claude: { type: 'anthropic' } },
        models: { default: 'copilot:gpt-5-mini', seats: { 'security-expert': 'claude:claude-sonnet-4-5' } },
      }),
      'config.json',
    );
    assert.deepEqual(config.providers.copilot, { type: 'copilot' });
    assert.throws(
      () =>
        parseConfig(
          '{\n  "providers": { "copilot": { "type": "copilot", "apiKeyEnv": "GH_TOKEN" } },\n  "models": { "default": "copilot:gpt-5-mini" }\n}',
          'config.json',
        ),
      (error: unknown) =>
        error instanceof ConfigError &&
        /^config\.json:2:\d+: providers\.copilot\.apiKeyEnv: a copilot provider takes no "apiKeyEnv".*`copilot login`/.test(
          error.message,
        ),
    );
    assert.throws(
      () =>
        parseConfig(
          JSON.stringify({
            providers: { openai: { type: 'openai', cliPath: '/usr/bin/copilot' } },
            models: { default: 'openai:gpt-5-mini' },
          }),
          'config.json',
        ),
      /providers\.openai\.cliPath: "cliPath" is for a copilot provider only/,
    );
  });
});
