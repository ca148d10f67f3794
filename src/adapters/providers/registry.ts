import { HookwireError, type LanguageModel } from '../../content/index.ts';
import { createAnthropicModel } from './anthropic/index.ts';
import { createGoogleModel } from './google/index.ts';
import { createOpenAIChatModel, createOpenAIResponsesModel } from './openai/index.ts';

/** The environment the registry reads credentials and base URLs from. */
export type ProviderEnvironment = NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>;

/** Options of {@link createModelFromSpec}. */
export interface ModelSpecOptions {
  /** `--base-url`: overrides the provider's base URL variable and allows a keyless server. */
  readonly baseURL?: string;
  /** Where `*_API_KEY` and `*_BASE_URL` are read (usually `process.env`). */
  readonly env: ProviderEnvironment;
}

/** The key a keyless local server gets: the SDKs require some string. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** The provider prefixes a model spec accepts, in the order error messages list them. */
export const MODEL_PROVIDERS = [
  'openai',
  'openai-responses',
  'openai-compatible',
  'anthropic',
  'google',
] as const;

export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A model spec that cannot be turned into a model: unknown provider, no model, no key. */
export class ModelSpecError extends HookwireError {
  constructor(message: string) {
    super('model_spec_invalid', message);
    this.name = 'ModelSpecError';
  }
}

function isProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * Resolves a key: the variable(s) when set; a placeholder when a base URL is given (a keyless
 * local server); otherwise a one-line error naming the variable.
 */
function requireKey(
  env: ProviderEnvironment,
  variables: readonly [string, ...string[]],
  baseURL: string | undefined,
): string {
  for (const variable of variables) {
    const value = nonEmpty(env[variable]);
    if (value !== undefined) return value;
  }
  if (baseURL !== undefined) return PLACEHOLDER_API_KEY;
  const names = variables.join(' or ');
  throw new ModelSpecError(
    `${names} is not set: export it, or pass --base-url for a keyless local server`,
  );
}

/**
 * Creates the model a `provider:MODEL` spec names (the model id may itself contain colons,
 * e.g. `openai-compatible:llama3:8b`):
 *
 * - `openai:MODEL` — Chat Completions; `OPENAI_API_KEY`, `OPENAI_BASE_URL`.
 * - `openai-responses:MODEL` — the Responses API; same variables.
 * - `openai-compatible:MODEL` — Chat Completions against an OpenAI-compatible server; needs a
 *   base URL (`--base-url` or `OPENAI_BASE_URL`); the key is `OPENAI_API_KEY` or a placeholder.
 * - `anthropic:MODEL` — `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`.
 * - `google:MODEL` — `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; `GOOGLE_GEMINI_BASE_URL`.
 *
 * `options.baseURL` (`--base-url`) overrides the base URL variable. A missing key is a
 * `ModelSpecError` with a one-line message naming the variable, unless a base URL is given (from
 * either source), in which case the server is taken to be keyless and gets a placeholder key.
 * `scripted:FILE` is the CLI's, not this registry's.
 */
export function createModelFromSpec(spec: string, options: ModelSpecOptions): LanguageModel {
  const separator = spec.indexOf(':');
  const provider = separator === -1 ? spec : spec.slice(0, separator);
  const model = separator === -1 ? '' : spec.slice(separator + 1);
  if (!isProvider(provider)) {
    throw new ModelSpecError(
      `Unknown model provider "${provider}" in "${spec}": use one of ${MODEL_PROVIDERS.join(', ')} (as provider:MODEL)`,
    );
  }
  if (model.trim() === '') {
    throw new ModelSpecError(
      `The model spec "${spec}" names no model: write it as ${provider}:MODEL`,
    );
  }
  const env = options.env;
  const override = nonEmpty(options.baseURL);
  switch (provider) {
    case 'openai':
    case 'openai-responses': {
      const baseURL = override ?? nonEmpty(env['OPENAI_BASE_URL']);
      const apiKey = requireKey(env, ['OPENAI_API_KEY'], baseURL);
      const openAIOptions = { model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) };
      return provider === 'openai'
        ? createOpenAIChatModel(openAIOptions)
        : createOpenAIResponsesModel(openAIOptions);
    }
    case 'openai-compatible': {
      const baseURL = override ?? nonEmpty(env['OPENAI_BASE_URL']);
      if (baseURL === undefined) {
        throw new ModelSpecError(
          'openai-compatible needs a server: pass --base-url or set OPENAI_BASE_URL',
        );
      }
      const apiKey = nonEmpty(env['OPENAI_API_KEY']) ?? PLACEHOLDER_API_KEY;
      return createOpenAIChatModel({ model, apiKey, baseURL, compatible: true });
    }
    case 'anthropic': {
      const baseURL = override ?? nonEmpty(env['ANTHROPIC_BASE_URL']);
      const apiKey = requireKey(env, ['ANTHROPIC_API_KEY'], baseURL);
      return createAnthropicModel({ model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
    }
    case 'google': {
      const baseURL = override ?? nonEmpty(env['GOOGLE_GEMINI_BASE_URL']);
      const apiKey = requireKey(env, ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], baseURL);
      return createGoogleModel({ model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
    }
  }
}
