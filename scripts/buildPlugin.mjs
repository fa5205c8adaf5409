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

/** An object in both manifests (Claude Code's validator refuses a string and warns without one). */
const author = { name: 'Council contributors' };

/** The Agent Plugins 1.0 manifest: only the fields its schema allows. */
const pluginManifest = {
  $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json',
  name: 'council',
  version: pkg.version,
  description,
  author,
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
  author,
  license: pkg.license,
  mcpServers: {
    council: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli/council.js', 'mcp'] },
  },
};

/**
 * The folder is its own one-plugin marketplace too: Claude Code installs only from a marketplace
 * (`claude plugin marketplace add <folder>`, then `claude plugin install council@council`).
 */
const claudeMarketplace = {
  name: 'council',
  description: 'Council, as a local marketplace of one plugin.',
  owner: author,
  plugins: [{ name: 'council', source: './', description, version: pkg.version, author }],
};

/** What a person (and a plugin directory's review) reads first: what it is, how to install it, what it needs. */
const readme = `# Council (agent plugin)

${description}

## Install

- Copilot CLI: \`copilot plugin install <this folder>\`
- Claude Code: \`claude plugin marketplace add <this folder>\`, then \`claude plugin install council@council\`
  (or \`claude --plugin-dir <this folder>\` for one session)
- VS Code: Chat: Install Plugin From Source, or \`chat.pluginLocations\` pointing at this folder

## Models

The MCP server (\`node dist/cli/council.js mcp\`, Node.js 20 or later) takes its model from its environment:
\`OPENAI_API_KEY\`, with \`OPENAI_BASE_URL\` for any OpenAI-compatible endpoint (Ollama, LM Studio). Without one,
a client that offers MCP sampling lends its own model; with neither, a tool call says how to configure one.
Every session is bounded by a request budget and shows what it spent.
`;

const json = value => `${JSON.stringify(value, null, 2)}\n`;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'skills'), { recursive: true });
mkdirSync(join(out, '.claude-plugin'), { recursive: true });
mkdirSync(join(out, 'dist', 'cli'), { recursive: true });
writeFileSync(join(out, 'plugin.json'), json(pluginManifest));
writeFileSync(join(out, 'mcp.json'), json(mcpConfig));
writeFileSync(join(out, 'README.md'), readme);
writeFileSync(join(out, '.claude-plugin', 'plugin.json'), json(claudeManifest));
writeFileSync(join(out, '.claude-plugin', 'marketplace.json'), json(claudeMarketplace));
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
