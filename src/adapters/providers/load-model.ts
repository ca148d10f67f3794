import type { LanguageModel } from '../../content/index.ts';
import { planModelFromSpec, type ModelPlan, type ModelSpecOptions } from './model-spec.ts';

/**
 * `createModelFromSpec`, loading only the SDK of the provider the spec names (the others are
 * never imported): what `hookwire run` uses, so start-up pays for one SDK at most. Throws the
 * same `ModelSpecError`s, before any SDK is loaded.
 */
export async function loadModelFromSpec(
  spec: string,
  options: ModelSpecOptions,
): Promise<LanguageModel> {
  return modelOfPlan(planModelFromSpec(spec, options));
}

async function modelOfPlan(plan: ModelPlan): Promise<LanguageModel> {
  switch (plan.provider) {
    case 'openai':
    case 'openai-compatible':
      return (await import('./openai/chat-model.ts')).createOpenAIChatModel(plan.options);
    case 'openai-responses':
      return (await import('./openai/responses-model.ts')).createOpenAIResponsesModel(plan.options);
    case 'anthropic':
      return (await import('./anthropic/anthropic-model.ts')).createAnthropicModel(plan.options);
    case 'google':
      return (await import('./google/google-model.ts')).createGoogleModel(plan.options);
  }
}
