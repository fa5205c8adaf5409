// The architecture, checked: no `any`, nothing unused; the core never reaching for VS Code or Node; inside src/core
// each folder imports only the folders its entry in LAYERS names (a graph: council and the workflow engine both stand on
// the workspace, neither on the other); src/vscode never imports the Node host; nothing in src imports from test/.
// test/unit/architecture walks the graph too; test/build/lintRules plants violations ESLint must refuse.
import tseslint from 'typescript-eslint';

/**
 * The folders of src/core and what each may import, bottom to top. Files directly in src/core (clock, actionableError,
 * closestMatch) sit below all of them. The workflow engine imports no feature; /plan is the engine plus its stage agent
 * types; deepWork composes engine and plan for /plan and /workflow.
 */
export const LAYERS = {
  storage: [],
  llm: [],
  session: ['llm', 'storage'],
  workspace: ['llm'],
  personas: ['llm', 'session'],
  decisions: ['llm', 'workspace'],
  council: ['llm', 'session', 'personas', 'workspace', 'decisions'],
  workflow: ['llm', 'workspace'],
  plan: ['llm', 'session', 'storage', 'workspace', 'workflow'],
  deepWork: ['llm', 'storage', 'workspace', 'workflow', 'plan'],
};

const NO_TEST_IMPORTS = { regex: '(^|/)test/', message: 'src never imports from test/: move what both need into src.' };
const NO_NODE_HOST = {
  regex: '^(\\.\\./)+node(/|$)',
  message: 'src/node is the desktop host entry; src/vscode runs in the web host too.',
};
const CORE_IS_NEUTRAL = [
  { group: ['node:*'], message: 'src/core runs in the web worker host too: no Node built-ins.' },
  {
    regex: '^(\\.\\./)+(vscode|node)(/|$)',
    message: 'src/core is platform-neutral: depend on a port, not on src/vscode or src/node.',
  },
  NO_TEST_IMPORTS,
];
const NO_VSCODE = [
  { name: 'vscode', message: 'src/core is platform-neutral: put VS Code code in src/vscode behind a port.' },
];

function restricted(patterns, paths = []) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

/** A core folder imports only the folders LAYERS lets it, however deep the file sits. */
function layerBlock([layer, allowed]) {
  const refused = Object.keys(LAYERS).filter(other => other !== layer && !allowed.includes(other));
  const patterns = [...CORE_IS_NEUTRAL];
  patterns.push({
    regex: `^(\\.\\./)+(${refused.join('|')})(/|$)`,
    message: `core/${layer} imports only ${allowed.join(', ') || 'the files directly in src/core'}: not ${refused.join(', ')}.`,
  });
  return { files: [`src/core/${layer}/**/*.ts`, `src/core/${layer}/**/*.tsx`], rules: restricted(patterns, NO_VSCODE) };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      '.vscode-test*/**',
      'test/integration/fixture/dist/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  { files: ['src/**/*.ts', 'src/**/*.tsx'], rules: restricted([NO_TEST_IMPORTS]) },
  { files: ['src/vscode/**/*.ts'], rules: restricted([NO_NODE_HOST, NO_TEST_IMPORTS]) },
  // The `council` command runs without VS Code: it stands on src/core and its ports, never on a VS Code host.
  {
    files: ['src/cli/**/*.ts'],
    rules: restricted(
      [
        {
          regex: '^(\\.\\./)+(vscode|node)(/|$)',
          message: 'src/cli runs without VS Code: use src/core and its ports.',
        },
        NO_TEST_IMPORTS,
      ],
      [{ name: 'vscode', message: 'src/cli runs without VS Code: use src/core and its ports.' }],
    ),
  },
  {
    files: ['src/core/*.ts'],
    rules: restricted(
      [
        ...CORE_IS_NEUTRAL,
        {
          regex: `^\\./(${Object.keys(LAYERS).join('|')})(/|$)`,
          message: 'Files directly in src/core are the bottom layer.',
        },
      ],
      NO_VSCODE,
    ),
  },
  ...Object.entries(LAYERS).map(layerBlock),
);
