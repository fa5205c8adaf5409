// The architecture, checked: no `any`, nothing unused; the core never reaching for VS Code or Node; inside src/core
// each folder imports only the folders below it (LAYERS); src/vscode never imports the Node host; nothing in src
// imports from test/. test/unit/architecture checks the layer order too, with a planted violation.
import tseslint from 'typescript-eslint';

/** src/core bottom to top; files directly in src/core (clock, actionableError) sit below all of them. */
export const LAYERS = ['storage', 'llm', 'session', 'personas', 'pipeline', 'council', 'workflow'];

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

/** A core folder may not import a layer above it, however deep the file sits. */
function layerBlock(layer, index) {
  const above = LAYERS.slice(index + 1);
  const patterns = [...CORE_IS_NEUTRAL];
  if (above.length > 0)
    patterns.push({
      regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
      message: `core/${layer} sits below ${above.join(', ')}: an import may only point down.`,
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
  {
    files: ['src/core/*.ts'],
    rules: restricted(
      [
        ...CORE_IS_NEUTRAL,
        { regex: `^\\./(${LAYERS.join('|')})(/|$)`, message: 'Files directly in src/core are the bottom layer.' },
      ],
      NO_VSCODE,
    ),
  },
  ...LAYERS.map(layerBlock),
);
