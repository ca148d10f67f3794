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
import type { Message, ReasoningSettings, ToolChoice, ToolDeclaration } from '../content/index.ts';

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
}
