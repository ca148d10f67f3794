import type { GenerationSettings, ModelRequest } from '../content/model.ts';
import type { HookLLMRequestOverride } from './llm-request.ts';
import { isJsonObject } from './json-object.ts';

/**
 * Applies one hook's `llm_request` override to a request:
 * - `contents` and `tools` replace the request's when they are arrays;
 * - `model` replaces when it is a string;
 * - `settings` shallow-merge over the request's (a key the override sets wins, the rest stay);
 * - absent or wrongly typed fields leave the request untouched (decode first with
 *   `decodeHookLLMRequestOverride` to report them).
 * Values are taken by reference; the base is returned as is when nothing applies.
 */
export function mergeHookLLMRequest<T extends ModelRequest>(base: T, override: unknown): T {
  if (!isJsonObject(override)) return base;
  const { model, contents, tools, settings } = override;
  const changes: Record<string, unknown> = {};
  let changed = false;
  if (typeof model === 'string') {
    changes['model'] = model;
    changed = true;
  }
  if (Array.isArray(contents)) {
    changes['contents'] = contents;
    changed = true;
  }
  if (Array.isArray(tools)) {
    changes['tools'] = tools;
    changed = true;
  }
  if (isJsonObject(settings)) {
    changes['settings'] = { ...base.settings, ...settings };
    changed = true;
  }
  return changed ? { ...base, ...changes } : base;
}

/**
 * Combines several hooks' `llm_request` overrides (configuration order) into one: for `model`,
 * `contents` and `tools` the later hook wins; `settings` shallow-merge, later keys winning.
 * Wrongly typed fields are skipped as in `mergeHookLLMRequest`. `undefined` when no override
 * carries anything.
 */
export function mergeLLMRequestOverrides(
  overrides: readonly unknown[],
): HookLLMRequestOverride | undefined {
  let model: string | undefined;
  let contents: HookLLMRequestOverride['contents'];
  let tools: HookLLMRequestOverride['tools'];
  let settings: GenerationSettings | undefined;
  for (const override of overrides) {
    if (!isJsonObject(override)) continue;
    if (typeof override['model'] === 'string') model = override['model'];
    if (Array.isArray(override['contents']))
      contents = override['contents'] as HookLLMRequestOverride['contents'];
    if (Array.isArray(override['tools']))
      tools = override['tools'] as HookLLMRequestOverride['tools'];
    const overrideSettings = override['settings'];
    if (isJsonObject(overrideSettings))
      settings = settings === undefined ? overrideSettings : { ...settings, ...overrideSettings };
  }
  if (
    model === undefined &&
    contents === undefined &&
    tools === undefined &&
    settings === undefined
  )
    return undefined;
  return {
    ...(model === undefined ? {} : { model }),
    ...(contents === undefined ? {} : { contents }),
    ...(tools === undefined ? {} : { tools }),
    ...(settings === undefined ? {} : { settings }),
  };
}
