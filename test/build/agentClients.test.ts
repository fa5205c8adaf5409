import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCli } from '../support/agentClis';
import { buildCouncilCli } from '../support/buildCouncilCli';
import { REPO_ROOT } from '../support/nodePersonaSource';

/*
 * The agent plugin installed by the clients themselves, offline, each in a home of its own: Copilot CLI
 * (`copilot plugin install <folder>`) and Claude Code (validate, then its local marketplace and `plugin install`;
 * its MCP health check starts the server from the installed plugin). A session in either needs a login or a key,
 * which this machine does not have: that part is not checked here.
 */

const PLUGIN = join(REPO_ROOT, 'dist', 'plugin', 'council');

describe('the agent plugin in the agent clients', function () {
  this.timeout(300_000);
  let home: string;
  let plugin: string;

  before(() => {
    buildCouncilCli();
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'buildPlugin.mjs')], { cwd: REPO_ROOT });
    agentCli('copilot');
  });
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'council-agent-home-'));
    // A copy, as a user's checkout would be: the installed plugin must not lean on the repository around it.
    plugin = join(home, 'council-plugin');
    cpSync(PLUGIN, plugin, { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** Runs a client with its own home and no keys; returns stdout and stderr together. */
  function run(command: string, args: readonly string[]): string {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    return execFileSync(command, [...args], { cwd: home, env, encoding: 'utf8', timeout: 120_000, stdio: 'pipe' });
  }

  it('Copilot CLI installs it with one command: the skill, and the MCP server from its mcp.json', () => {
    const copilot = agentCli('copilot');
    assert.match(
      run(copilot, ['plugin', 'install', plugin]),
      /Plugin "council" installed successfully\. Installed 1 skill\./,
    );
    assert.match(run(copilot, ['plugin', 'list']), /Installed plugins:\s+• council \(v\d+\.\d+\.\d+\)/);
    const server = run(copilot, ['mcp', 'get', 'council']);
    assert.match(server, /Status: Enabled/);
    assert.match(server, /Command: node \$\{PLUGIN_ROOT\}\/dist\/cli\/council\.js mcp/);
    assert.match(server, /Source plugin: council/);
  });

  it('Claude Code validates it with no warning, installs it from its marketplace, and connects to its server', () => {
    const claude = agentCli('claude');
    const validated = run(claude, ['plugin', 'validate', plugin]);
    assert.match(validated, /✔ Validation passed\n/, 'passed, and with no warning');
    // The plugin directory's own checks (a catalogue we have not submitted to) may still ask for an icon.
    assert.doesNotMatch(validated, /refuses a submission for/);
    assert.match(run(claude, ['plugin', 'marketplace', 'add', plugin]), /Successfully added marketplace: council/);
    assert.match(
      run(claude, ['plugin', 'install', 'council@council']),
      /Successfully installed plugin: council@council/,
    );
    assert.match(run(claude, ['plugin', 'list']), /council@council[\s\S]*Status: ✔ enabled/);
    // The health check starts `council mcp` from the plugin and speaks MCP with it.
    assert.match(
      run(claude, ['mcp', 'list']),
      /plugin:council:council: node \S+\/dist\/cli\/council\.js mcp - ✔ Connected/,
    );
  });
});
