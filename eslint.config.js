// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

/**
 * The layers of the design brief, top to bottom. A layer imports only from the layers above it,
 * and provider SDKs and the CLI framework never reach the core layers.
 */
const sdkPackages = [
  'openai',
  'openai/*',
  '@anthropic-ai/sdk',
  '@anthropic-ai/sdk/*',
  '@google/genai',
  '@google/genai/*',
  'ai',
  'ai/*',
  '@ai-sdk/*',
  '@anthropic-ai/claude-agent-sdk',
  '@anthropic-ai/claude-agent-sdk/*',
  'commander',
  // An optional peer dependency: only the adapter behind `hookwire/otel` and the CLI load it.
  '@opentelemetry/*',
];

/** @param {string[]} below @param {string} layer */
function layerRule(layer, below) {
  return {
    files: [`src/${layer}/**/*.ts`],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            ...(below.length > 0
              ? [
                  {
                    regex: `(^|/)(${below.join('|')})/`,
                    message: `The ${layer} layer may only import from the layers above it (see docs/decisions/0001-one-package-with-layers.md).`,
                  },
                ]
              : []),
            ...([
              'content',
              'wire',
              'events',
              'hooks',
              'lifecycle',
              'supervision',
              'hook-kinds',
              'mcp',
              'loop',
              'host',
            ].includes(layer)
              ? [
                  {
                    group: sdkPackages,
                    message: `Provider SDKs, OpenTelemetry and the CLI framework stay out of the ${layer} layer: they belong to adapters/ and cli/.`,
                  },
                ]
              : []),
          ],
        },
      ],
    },
  };
}

/**
 * One rule per layer, from the ordered list of layers (top first): each may import only the
 * layers before it.
 * @param {string[]} layers
 */
function layerRules(layers) {
  return layers.slice(0, -1).map((layer, index) => layerRule(layer, layers.slice(index + 1)));
}

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'coverage/**', 'bench/results/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unified-signatures': 'off',
    },
  },
  {
    // Example hook scripts are plain JavaScript run by any Node: lint them without type information.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  ...layerRules([
    'content',
    'wire',
    'events',
    'hooks',
    'lifecycle',
    'supervision',
    'hook-kinds',
    'mcp',
    'loop',
    'host',
    'adapters',
    'cli',
  ]),
);
