import type { LanguageModel } from '../../content/index.ts';
import { createAnthropicModel } from './anthropic/index.ts';
import { createGoogleModel } from './google/index.ts';
import { createOpenAIChatModel, createOpenAIResponsesModel } from './openai/index.ts';
import { planModelFromSpec, type ModelSpecOptions } from './model-spec.ts';

export {
  MODEL_PROVIDERS,
  ModelSpecError,
  PLACEHOLDER_API_KEY,
  planModelFromSpec,
  type ModelPlan,
  type ModelProvider,
  type ModelSpecOptions,
  type ProviderEnvironment,
} from './model-spec.ts';

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
  const plan = planModelFromSpec(spec, options);
  switch (plan.provider) {
    case 'openai':
    case 'openai-compatible':
      return createOpenAIChatModel(plan.options);
    case 'openai-responses':
      return createOpenAIResponsesModel(plan.options);
    case 'anthropic':
      return createAnthropicModel(plan.options);
    case 'google':
      return createGoogleModel(plan.options);
  }
}

export { loadModelFromSpec } from './load-model.ts';
