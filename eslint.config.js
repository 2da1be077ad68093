import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * `import { z }` keeps all of zod in a bundle (its messages in 40 languages); the namespace lets the
 * bundler leave out what is unused (docs/operations.md "Running compiled"). Every block that sets
 * no-restricted-syntax lists it, since a later block's list replaces an earlier one.
 */
const zodAsNamespace = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
  message: "import zod as a namespace: import * as z from 'zod'",
};

const webNotServer = {
  group: ['@sparrow/server', '**/packages/server/**'],
  message: 'server and web never import each other',
};

/** The web client's top (router, route table, start-up), which the layers under it never import. */
const notApp = {
  group: ['**/app', '**/app/**'],
  message:
    'app/ is the top of the client: paths and navigation are in nav/, the session in session/, feedback in components/',
};
const notAppLoaded = {
  selector: String.raw`ImportExpression[source.value=/(^|\/)app(\/|$)/]`,
  message: notApp.message,
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-e2e/**',
      'data/**',
      'test-results/**',
      '**/*.config.ts',
      '**/*.config.js',
      'scripts/**',
      'bench/**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The example programs are plain Node.js modules, run as they are.
    files: ['examples/**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', zodAsNamespace],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['packages/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@sparrow/web', '**/packages/web/**'], message: 'server and web never import each other' },
          ],
        },
      ],
    },
  },
  {
    // A module uses another only through its index.ts, the part it offers to the others.
    files: ['packages/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@sparrow/web', '**/packages/web/**'], message: 'server and web never import each other' },
            {
              group: ['../*/*', '!../../**'],
              message: "import another module through its index.ts ('../user', not '../user/repo')",
            },
          ],
        },
      ],
    },
  },
  {
    // Repositories own all SQL (docs/style.md habit 2): no query is built outside repo files and db/.
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/**/repo.ts', 'packages/server/src/**/*-repo.ts', 'packages/server/src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction)$/]',
          message: 'SQL lives in a repository (repo.ts or *-repo.ts of the module)',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL lives in a repository' },
        zodAsNamespace,
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webNotServer] }],
    },
  },
  {
    // app/ is the top of the client: what the layers under it use lives in nav/, session/ and components/.
    files: ['packages/web/src/{components,stores,chat,call,api,lib,i18n,nav,session}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [webNotServer, notApp] }],
      'no-restricted-syntax': ['error', zodAsNamespace, notAppLoaded],
    },
  },
  {
    // The route table loads every page, so a page that imports it back closes a circle.
    files: ['packages/web/src/pages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webNotServer,
            {
              group: ['**/app/routes', '**/app/App'],
              message: "app/routes.ts loads the pages: a page preloads another's chunk through nav/preload.ts",
            },
          ],
        },
      ],
    },
  },
  {
    // The transport layer knows nothing above it: the app hands it the session and a dispatcher.
    files: ['packages/web/src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webNotServer,
            notApp,
            {
              group: [
                '**/stores',
                '**/stores/**',
                '**/chat',
                '**/chat/**',
                '**/call',
                '**/call/**',
                '**/pages',
                '**/pages/**',
              ],
              message: 'api/ is transport only: stores, engines, calls and pages import it, never the other way',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@sparrow/server', '@sparrow/web', '**/packages/server/**', '**/packages/web/**'],
              message: 'protocol depends on nothing of ours',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
