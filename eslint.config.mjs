// The rules the code already keeps by discipline, checked: no `any`, nothing unused, the core never reaching for
// VS Code or Node (the layer order inside src/core is checked by test/unit/architecture).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', '.vscode-test*/**', 'test/integration/fixture/dist/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/core/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core is platform-neutral: put VS Code code in src/vscode behind a port.' }], patterns: [{ group: ['node:*'], message: 'src/core runs in the web worker host too: no Node built-ins.' }] }],
    },
  },
);
