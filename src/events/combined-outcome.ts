/**
 * The combined outcome of one group of external hooks (or of several groups) for one event: what
 * every external hook kind produces, and what an event's `toAction` turns into its action.
 */
import type { ToolChoice } from '../content/index.ts';
import type { HookLLMRequestOverride, HookLLMResponseOverride } from '../wire/index.ts';

/** The combined outcome of a group (or of several groups) for one event. */
export interface CombinedOutcome {
  /** Any hook denied (top-level `decision`, `permissionDecision`, exit 2, fail-closed). */
  readonly denied: boolean;
  /** The denying hooks' reasons, in configuration order. */
  readonly denyReasons: readonly string[];
  /**
   * PreToolUse: every denial was an `ask` (`permissionDecision: "ask"`); the hooks that asked and
   * their reasons, in configuration order. Absent when nobody asked or some hook denied outright.
   */
  readonly asks?: readonly { readonly by: string; readonly reason: string }[];
  /** Any hook said `continue: false`. */
  readonly stopped: boolean;
  readonly stopReasons: readonly string[];
  readonly systemMessages: readonly string[];
  readonly additionalContexts: readonly string[];
  readonly suppressOutput: boolean;
  /** PermissionRequest: some hook answered `decision.behavior: "allow"`. */
  readonly allowed?: boolean;
  /**
   * PreToolUse / PermissionRequest: the arguments after every rewrite (`tool_input`,
   * `updatedInput`, `decision.updatedInput`), applied in configuration order.
   */
  readonly args?: unknown;
  /** BeforeModel: the hooks' `llm_request` overrides combined (later hook wins per field). */
  readonly llmRequest?: HookLLMRequestOverride;
  /** BeforeModel (synthetic response) / AfterModel (replacement): the last hook's `llm_response`. */
  readonly llmResponse?: HookLLMResponseOverride;
  /** BeforeToolSelection: none > required > auto; allowlists intersect. */
  readonly toolChoice?: ToolChoice;
  /** PostToolUse: the last hook's replacement of what the model sees, when any hook gave one. */
  readonly toolOutput?: { readonly value: unknown };
  /** Stop (Gemini `clearContext`). */
  readonly clearContext: boolean;
  readonly warnings: readonly string[];
}
