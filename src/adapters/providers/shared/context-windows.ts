/**
 * The context windows (input + output tokens a request may span) of the model families
 * hookwire's providers serve, as their providers publish them. An adapter declares
 * `LanguageModel.contextWindow` from this table, so the loop compacts before a request grows past
 * it (see `src/loop/compact-step.ts`) without `--max-context-tokens`.
 *
 * The first pattern that matches the model id wins, so the specific entries come before their
 * family's. An id the table does not know (a fine-tune, a model newer than this table, a local
 * model behind `openai-compatible`) has no window: automatic compaction is off for it unless a
 * budget is given (`--max-context-tokens`, the `maxContextTokens` setting, the adapter's
 * `contextWindow` option). Windows of the same id can differ by account tier or beta flag
 * (Claude's 1M-token beta); the table has the default, which is the safe side.
 */

/** Which table a provider reads: the model families it serves. */
export type ContextWindowFamily = 'anthropic' | 'openai' | 'google';

type Row = readonly [pattern: RegExp, tokens: number];

const ANTHROPIC: readonly Row[] = [
  [/^claude-(?:2\.0|instant)/, 100_000],
  [/^claude-/, 200_000],
];

const OPENAI: readonly Row[] = [
  [/^gpt-5(?:\.\d+)?-chat/, 128_000],
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-4\.5/, 128_000],
  [/^(?:gpt-4o|chatgpt-4o)/, 128_000],
  [/^gpt-4-turbo|^gpt-4-\d{4}-preview/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4(?:-\d{4})?$/, 8_192],
  [/^gpt-3\.5-turbo-instruct/, 4_096],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o1-(?:mini|preview)/, 128_000],
  [/^o[134](?:-|$)/, 200_000],
  [/^codex-mini/, 200_000],
];

const GOOGLE: readonly Row[] = [
  [/^gemini-1\.5-pro/, 2_097_152],
  [/^gemini-(?:1\.0-pro|pro$|pro-vision)/, 32_760],
  [/^gemini-/, 1_048_576],
];

const TABLES: Readonly<Record<ContextWindowFamily, readonly Row[]>> = {
  anthropic: ANTHROPIC,
  openai: OPENAI,
  google: GOOGLE,
};

/**
 * The known context window of `modelId` in `family`'s table (see the module comment), or
 * `undefined`. A `models/` prefix (Gemini's resource names) is ignored.
 */
export function knownContextWindow(
  family: ContextWindowFamily,
  modelId: string,
): number | undefined {
  const id = modelId.replace(/^models\//, '');
  for (const [pattern, tokens] of TABLES[family]) if (pattern.test(id)) return tokens;
  return undefined;
}

/**
 * `{contextWindow}` for a model's object literal (nothing when unknown, so the field stays
 * absent): see `declaredContextWindow`.
 */
export function contextWindowOf(
  family: ContextWindowFamily | undefined,
  options: { readonly model: string; readonly contextWindow?: number },
): { readonly contextWindow?: number } {
  const tokens = declaredContextWindow(family, options.model, options.contextWindow);
  return tokens === undefined ? {} : { contextWindow: tokens };
}

/**
 * The window an adapter declares: its `contextWindow` option when given (a positive integer,
 * else `RangeError`), else the table's for `family` (none for `openai-compatible`: such a server
 * serves models of its own).
 */
export function declaredContextWindow(
  family: ContextWindowFamily | undefined,
  modelId: string,
  option: number | undefined,
): number | undefined {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 1)
      throw new RangeError(`contextWindow must be a positive integer, got ${option}`);
    return option;
  }
  return family === undefined ? undefined : knownContextWindow(family, modelId);
}
