// Builds the agent plugin: dist/plugin/council, in the Agent Plugins 1.0 layout (plugin.json, skills/, mcp.json)
// plus .claude-plugin/plugin.json for Claude Code. Its MCP server starts the bundled `council mcp` (dist/cli/council.js,
// built by esbuild.mjs); the personas and the tool definitions (package.json) ship beside it.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'plugin', 'council');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const description =
  'Council: a panel of expert personas that clarifies a hard decision, debates it in bounded cycles and gives one answer with its vote, dissent, assumptions and cost (MCP tools council_open, council_deliberate, council_plan and council_workflow, and the council-protocol skill).';

/** The Agent Plugins 1.0 manifest: only the fields its schema allows. */
const pluginManifest = {
  $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json',
  name: 'council',
  version: pkg.version,
  description,
  license: pkg.license,
  keywords: ['council', 'decisions', 'mcp', 'skills'],
};

/** `council mcp` from the plugin's own copy of the command; the model comes from the server's environment. */
const mcpConfig = {
  $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json',
  mcpServers: {
    council: { type: 'stdio', command: 'node', args: ['${PLUGIN_ROOT}/dist/cli/council.js', 'mcp'] },
  },
};

/** Claude Code's manifest: the same server, with its own root variable. */
const claudeManifest = {
  name: 'council',
  version: pkg.version,
  description,
  license: pkg.license,
  mcpServers: {
    council: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli/council.js', 'mcp'] },
  },
};

const json = value => `${JSON.stringify(value, null, 2)}\n`;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'skills'), { recursive: true });
mkdirSync(join(out, '.claude-plugin'), { recursive: true });
mkdirSync(join(out, 'dist', 'cli'), { recursive: true });
writeFileSync(join(out, 'plugin.json'), json(pluginManifest));
writeFileSync(join(out, 'mcp.json'), json(mcpConfig));
writeFileSync(join(out, '.claude-plugin', 'plugin.json'), json(claudeManifest));
cpSync(join(root, 'agents', 'council-protocol'), join(out, 'skills', 'council-protocol'), { recursive: true });
cpSync(join(root, 'personas'), join(out, 'personas'), { recursive: true });
cpSync(join(root, 'dist', 'cli', 'council.js'), join(out, 'dist', 'cli', 'council.js'));
// council_plan and council_workflow: the built-in workflows, and the workflow scripts' engine.
cpSync(join(root, 'workflows'), join(out, 'workflows'), { recursive: true });
cpSync(join(root, 'dist', 'quickjs.wasm'), join(out, 'dist', 'quickjs.wasm'));
// The server lists the tools VS Code registers: package.json `contributes.languageModelTools`, nothing else.
writeFileSync(
  join(out, 'package.json'),
  json({
    name: 'council-plugin',
    private: true,
    version: pkg.version,
    contributes: { languageModelTools: pkg.contributes.languageModelTools },
  }),
);
console.log(`Agent plugin: ${out}`);
