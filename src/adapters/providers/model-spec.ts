/**
 * Model specs (`provider:MODEL`) resolved to the provider, model id, key and base URL they
 * name, without loading any provider SDK: `registry.ts` builds the model from the plan, with the
 * SDKs imported up front (`createModelFromSpec`) or only the one the spec names
 * (`loadModelFromSpec`, what the CLI uses, so a run loads one SDK at most).
 */
import { HookwireError } from '../../content/index.ts';

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

export function isProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * Resolves a key: the variable(s) when set; a placeholder when a base URL is given (a keyless
 * local server); otherwise a one-line error naming the variable.
 */
export function requireKey(
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

/** What a model spec resolves to, before any SDK is loaded. */
export type ModelPlan =
  | {
      readonly provider: 'openai' | 'openai-responses' | 'openai-compatible';
      readonly options: {
        readonly model: string;
        readonly apiKey: string;
        readonly baseURL?: string;
        readonly compatible?: boolean;
      };
    }
  | {
      readonly provider: 'anthropic' | 'google';
      readonly options: {
        readonly model: string;
        readonly apiKey: string;
        readonly baseURL?: string;
      };
    };

/**
 * Resolves a `provider:MODEL` spec (see `createModelFromSpec` for the providers and variables)
 * without loading any provider SDK; throws the same `ModelSpecError`s.
 */
export function planModelFromSpec(spec: string, options: ModelSpecOptions): ModelPlan {
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
      return {
        provider,
        options: { model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) },
      };
    }
    case 'openai-compatible': {
      const baseURL = override ?? nonEmpty(env['OPENAI_BASE_URL']);
      if (baseURL === undefined) {
        throw new ModelSpecError(
          'openai-compatible needs a server: pass --base-url or set OPENAI_BASE_URL',
        );
      }
      const apiKey = nonEmpty(env['OPENAI_API_KEY']) ?? PLACEHOLDER_API_KEY;
      return { provider, options: { model, apiKey, baseURL, compatible: true } };
    }
    case 'anthropic': {
      const baseURL = override ?? nonEmpty(env['ANTHROPIC_BASE_URL']);
      const apiKey = requireKey(env, ['ANTHROPIC_API_KEY'], baseURL);
      return {
        provider,
        options: { model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) },
      };
    }
    case 'google': {
      const baseURL = override ?? nonEmpty(env['GOOGLE_GEMINI_BASE_URL']);
      const apiKey = requireKey(env, ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], baseURL);
      return {
        provider,
        options: { model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) },
      };
    }
  }
}
