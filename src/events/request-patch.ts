/**
 * A non-sticky patch to the current model call's request, returned by completion-call hooks.
 *
 * A `HookStack` merges patches in registration order (`mergeRequestPatches`):
 * - `extraContext` entries are appended in order;
 * - `additionalParams` objects are shallow-merged, later top-level keys winning; a later
 *   non-object value replaces an earlier one;
 * - `activeTools` allowlists are intersected (order of the earlier list kept);
 * - every other field (scalars, `history`, `tools`, `model`) is last-writer-wins, with a warning
 *   naming the field when two hooks set it.
 *
 * The merged patch applies to one model call only and never changes the run's baseline.
 */
import {
  HookwireError,
  message,
  text,
  type GenerationSettings,
  type Message,
  type ModelRequest,
  type ReasoningSettings,
  type ToolChoice,
  type ToolDeclaration,
} from '../content/index.ts';

export interface RequestPatch {
  /** Replaces the model id sent for this call. */
  readonly model?: string;
  /** Replaces the system instruction for this call. */
  readonly systemInstruction?: string;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly toolChoice?: ToolChoice;
  readonly reasoning?: ReasoningSettings;
  /** Narrows the tools offered for this call to these names. */
  readonly activeTools?: readonly string[];
  /** Replaces the tool declarations offered for this call. */
  readonly tools?: readonly ToolDeclaration[];
  /** Provider-specific request fields (shallow-merged into the provider request). */
  readonly additionalParams?: unknown;
  /** Context documents added to the request for this call (as text after the history). */
  readonly extraContext?: readonly string[];
  /** Replaces the conversation sent for this call (the transcript is not changed). */
  readonly history?: readonly Message[];
  /**
   * Other generation settings (`topK`, `stopSequences`, `seed`, …) shallow-merged over the
   * request's `settings`, later keys winning; the dedicated fields above apply after it. This is
   * how a command hook's `llm_request.settings` reaches the request.
   */
  readonly settings?: Readonly<Partial<GenerationSettings>>;
}

/** The `RequestPatch` fields merged last-writer-wins (a warning names the field when two set it). */
const LAST_WRITER_WINS_FIELDS = [
  'model',
  'systemInstruction',
  'temperature',
  'maxOutputTokens',
  'topP',
  'toolChoice',
  'reasoning',
  'tools',
  'history',
] as const satisfies readonly (keyof RequestPatch)[];

/** The patch fields that replace a value (last writer wins). */
export type LastWriterWinsField = (typeof LAST_WRITER_WINS_FIELDS)[number];

type MutablePatch = { -readonly [Field in keyof RequestPatch]: RequestPatch[Field] };

/** True for `{…}` objects (not arrays, not `null`, not class instances such as `Date`). */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Merges a later patch into an earlier one (registration order) without changing either:
 * - `extraContext`: the later entries are appended after the earlier ones;
 * - `additionalParams`: two plain objects are shallow-merged, later top-level keys winning; a
 *   later value that is not a plain object replaces the earlier value;
 * - `settings`: shallow-merged, later keys winning;
 * - `activeTools`: intersected, keeping the order of the earlier list (an empty result allows no
 *   tool);
 * - every other field: the later value wins, and `warn(field)` is called when both set it.
 *
 * The merge is associative, so a nested stack's merged patch merges into its parent exactly as
 * its members' patches would have merged flat (including the number of warnings).
 */
export function mergeRequestPatches(
  earlier: RequestPatch,
  later: RequestPatch,
  warn: (field: LastWriterWinsField) => void,
): RequestPatch {
  const merged: MutablePatch = { ...earlier };
  for (const field of LAST_WRITER_WINS_FIELDS) {
    const value = later[field];
    if (value === undefined) continue;
    if (earlier[field] !== undefined) warn(field);
    (merged as Record<string, unknown>)[field] = value;
  }
  if (later.extraContext !== undefined) {
    merged.extraContext =
      earlier.extraContext === undefined
        ? later.extraContext
        : [...earlier.extraContext, ...later.extraContext];
  }
  if (later.additionalParams !== undefined) {
    merged.additionalParams =
      isPlainObject(earlier.additionalParams) && isPlainObject(later.additionalParams)
        ? { ...earlier.additionalParams, ...later.additionalParams }
        : later.additionalParams;
  }
  if (later.settings !== undefined) {
    merged.settings =
      earlier.settings === undefined ? later.settings : { ...earlier.settings, ...later.settings };
  }
  if (later.activeTools !== undefined) {
    if (earlier.activeTools === undefined) {
      merged.activeTools = later.activeTools;
    } else {
      const keep = new Set(later.activeTools);
      merged.activeTools = earlier.activeTools.filter((name) => keep.has(name));
    }
  }
  return merged;
}

/** True when the patch changes nothing (every field absent, `extraContext` absent or empty). */
export function isEmptyRequestPatch(patch: RequestPatch): boolean {
  for (const field in patch) {
    const value = patch[field as keyof RequestPatch];
    if (value === undefined) continue;
    if (field === 'extraContext' && (value as readonly string[]).length === 0) continue;
    return false;
  }
  return true;
}

/**
 * Applies a (merged) patch to the request of one model call and returns a new request; the input
 * is not changed.
 *
 * - `model` replaces the model id; `history` replaces `contents`;
 * - `settings` is shallow-merged over the request's settings first; then
 * - `systemInstruction`, `temperature`, `maxOutputTokens`, `topP`, `toolChoice` and `reasoning`
 *   replace the same fields of `settings`;
 * - `tools` replaces the tool declarations, then `activeTools` keeps only the declarations whose
 *   name it lists (in the declarations' order);
 * - `additionalParams` (a plain object) is shallow-merged over `settings.additionalParams`;
 * - `extraContext` is appended after the (possibly replaced) history as one `human` message with
 *   one text block per entry, so the documents sit closest to the model's answer.
 *
 * @throws HookwireError (`request_patch_invalid`) when `additionalParams` is not a plain object:
 *   provider fields can only be merged from an object.
 */
export function applyRequestPatch(request: ModelRequest, patch: RequestPatch): ModelRequest {
  let contents = patch.history ?? request.contents;
  if (patch.extraContext !== undefined && patch.extraContext.length > 0) {
    contents = [
      ...contents,
      message(
        'human',
        patch.extraContext.map((entry) => text(entry)),
      ),
    ];
  }
  let tools = patch.tools ?? request.tools;
  if (patch.activeTools !== undefined && tools !== undefined) {
    const active = new Set(patch.activeTools);
    tools = tools.filter((tool) => active.has(tool.name));
  }
  const settings: { -readonly [Field in keyof GenerationSettings]: GenerationSettings[Field] } = {
    ...request.settings,
    ...patch.settings,
  };
  if (patch.systemInstruction !== undefined) settings.systemInstruction = patch.systemInstruction;
  if (patch.temperature !== undefined) settings.temperature = patch.temperature;
  if (patch.maxOutputTokens !== undefined) settings.maxOutputTokens = patch.maxOutputTokens;
  if (patch.topP !== undefined) settings.topP = patch.topP;
  if (patch.toolChoice !== undefined) settings.toolChoice = patch.toolChoice;
  if (patch.reasoning !== undefined) settings.reasoning = patch.reasoning;
  if (patch.additionalParams !== undefined) {
    if (!isPlainObject(patch.additionalParams)) {
      throw new HookwireError(
        'request_patch_invalid',
        `RequestPatch.additionalParams must be a plain object of provider request fields, got ${describeValue(patch.additionalParams)}; return e.g. {additionalParams: {"seed": 7}} instead.`,
      );
    }
    settings.additionalParams = { ...settings.additionalParams, ...patch.additionalParams };
  }
  const patched: { -readonly [Field in keyof ModelRequest]: ModelRequest[Field] } = {
    model: patch.model ?? request.model,
    contents,
  };
  if (tools !== undefined) patched.tools = tools;
  if (request.settings !== undefined || Object.keys(settings).length > 0)
    patched.settings = settings;
  return patched;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
}
