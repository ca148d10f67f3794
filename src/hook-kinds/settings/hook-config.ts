import type { HookEventName, RegisteredEventName } from '../../events/index.ts';
import type { CompiledMatcher } from './matcher.ts';
import type { HookConfig } from '../registry.ts';
import type { SettingsLayer } from './settings-layer.ts';
import type { DialectName } from '../dialects/dialect-names.ts';

export type { CommandHookConfig } from '../command/command-config.ts';

/** One group of a settings file: a matcher and the hooks it runs, for one event. */
export interface HookGroupConfig {
  /** The canonical event. */
  readonly event: HookEventName;
  /** The name the group was registered under (canonical or alias); hooks get it as `hook_event_name`. */
  readonly registeredAs: RegisteredEventName;
  readonly matcher: CompiledMatcher;
  /** The matcher as written; `''` when missing. */
  readonly matcherSource: string;
  /** Run the hooks one after another (each sees the input as rewritten before it). Default false. */
  readonly sequential: boolean;
  /** The group's hooks, each of one kind (`type`; see `src/hook-kinds/registry.ts`). */
  readonly hooks: readonly HookConfig[];
  /**
   * The tool the group's file was written for (`.claude/settings.json` → `claude`); absent for
   * hookwire's own files. Its hooks see payloads and answer in that tool's vocabulary.
   */
  readonly dialect?: DialectName;
  /**
   * The matcher and `if` are written in the dialect's tool names (a group of the other tool's own
   * file). False or absent: in hookwire's (a hookwire file's group with a `dialect`).
   */
  readonly foreignNames?: boolean;
  /**
   * The dialect's own event name its hooks were written for, when the dialect has payloads of its
   * own (Cursor's `beforeShellExecution`, Windsurf's `pre_run_command`): what they get as
   * `hook_event_name` / `agent_action_name`. Absent: `registeredAs`.
   */
  readonly dialectEvent?: string;
  readonly layer: SettingsLayer;
  readonly file: string;
  /** JSON path of the group, e.g. `hooks.PreToolUse[0]`. */
  readonly path: string;
}
