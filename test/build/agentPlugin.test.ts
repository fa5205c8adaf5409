import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildCouncilCli } from '../support/buildCouncilCli';
import { REPO_ROOT } from '../support/nodePersonaSource';

/*
 * The agent plugin scripts/buildPlugin.mjs writes (run by `npm run package`), checked against the Agent Plugins 1.0
 * schemas (agentplugins/agent-plugins-spec schemas/1.0.0/plugin.schema.json and mcp.schema.json: the fields, required
 * keys, closed objects and the name pattern), then started as a client would start it from mcp.json.
 */

const PLUGIN = join(REPO_ROOT, 'dist', 'plugin', 'council');
/** plugin.schema.json 1.0.0: `additionalProperties: false` over these. */
const MANIFEST_FIELDS = new Set([
  '$schema',
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'extensions',
  'displayName',
]);
const NAME = /^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const STDIO_FIELDS = new Set(['type', 'command', 'args', 'env', 'cwd']);

function readJson(...path: string[]): Record<string, unknown> {
  return JSON.parse(readFileSync(join(PLUGIN, ...path), 'utf8')) as Record<string, unknown>;
}

describe('the agent plugin', function () {
  this.timeout(60_000);
  before(() => {
    buildCouncilCli();
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'buildPlugin.mjs')], { cwd: REPO_ROOT });
  });

  it('plugin.json follows the Agent Plugins 1.0 manifest schema', () => {
    const manifest = readJson('plugin.json');
    assert.equal(manifest.$schema, 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json');
    assert.equal(typeof manifest.name, 'string');
    assert.match(String(manifest.name), NAME);
    assert.ok(String(manifest.name).length <= 64);
    assert.deepEqual(
      Object.keys(manifest).filter(key => !MANIFEST_FIELDS.has(key)),
      [],
      'no field the schema does not allow',
    );
    for (const key of ['version', 'description', 'license']) assert.equal(typeof manifest[key], 'string', key);
  });

  it('mcp.json declares one stdio server that starts council mcp from the plugin', () => {
    const config = readJson('mcp.json');
    assert.equal(config.$schema, 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json');
    assert.deepEqual(Object.keys(config).sort(), ['$schema', 'mcpServers']);
    const servers = config.mcpServers as Record<string, Record<string, unknown>>;
    const server = servers.council;
    assert.ok(server);
    assert.equal(server.type, 'stdio');
    assert.ok(typeof server.command === 'string' && server.command.length > 0);
    assert.deepEqual(
      Object.keys(server).filter(key => !STDIO_FIELDS.has(key)),
      [],
    );
    assert.deepEqual(server.args, ['${PLUGIN_ROOT}/dist/cli/council.js', 'mcp']);
  });

  it('carries the council-protocol skill, named as its folder, and the Claude Code manifest', () => {
    const skill = readFileSync(join(PLUGIN, 'skills', 'council-protocol', 'SKILL.md'), 'utf8');
    assert.match(skill, /^---\nname: council-protocol\n/);
    const claude = readJson('.claude-plugin', 'plugin.json');
    assert.equal(claude.name, 'council');
    const servers = claude.mcpServers as Record<string, { args: string[] }>;
    assert.deepEqual(servers.council?.args, ['${CLAUDE_PLUGIN_ROOT}/dist/cli/council.js', 'mcp']);
    assert.ok(existsSync(join(PLUGIN, 'personas', 'software-architect.md')));
  });

  it('its server starts from mcp.json as a client starts it and lists the four tools', async () => {
    const server = (readJson('mcp.json').mcpServers as Record<string, { command: string; args: string[] }>).council;
    assert.ok(server);
    const args = server.args.map(arg => arg.replace('${PLUGIN_ROOT}', PLUGIN));
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: server.command, args: [...args, '--demo'], cwd: PLUGIN, stderr: 'pipe' }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map(t => t.name).sort(), [
        'council_deliberate',
        'council_open',
        'council_plan',
        'council_workflow',
      ]);
    } finally {
      await client.close();
    }
  });
});
