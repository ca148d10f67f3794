import {
  HOOK_EVENT_NAMES,
  type HookEventName,
  type RegisteredEventName,
} from '../../wire/event-names.ts';
import { formatDuration } from './duration.ts';
import type { EffectiveSettings } from './effective-settings.ts';
import type { CommandHookConfig, HookGroupConfig } from './hook-config.ts';
import type { SettingsLayer } from './settings-layer.ts';

/** One row of `hookwire hooks list`: a hook, its group and where it was defined. */
export interface EffectiveHookRow {
  readonly event: HookEventName;
  readonly registeredAs: RegisteredEventName;
  /** The matcher as written, `*` when it matches everything. */
  readonly matcher: string;
  readonly name: string;
  readonly command: string;
  /** The deadline, readable (`"30s"`, `"500ms"`). */
  readonly timeout: string;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
  readonly sequential: boolean;
  readonly layer: SettingsLayer;
  readonly file: string;
  readonly path: string;
  /** `active`: it runs; `ignored`: it does not, for `ignoredReason`. */
  readonly status: 'active' | 'ignored';
  readonly ignoredReason?: string;
  readonly alsoDefinedIn: readonly string[];
}

function row(
  group: HookGroupConfig,
  hook: CommandHookConfig,
  ignoredReason?: string,
): EffectiveHookRow {
  return {
    event: group.event,
    registeredAs: group.registeredAs,
    matcher: group.matcher.kind === 'all' ? '*' : group.matcherSource,
    name: hook.name,
    command: hook.command,
    timeout: formatDuration(hook.timeoutMs),
    timeoutMs: hook.timeoutMs,
    failClosed: hook.failClosed,
    sequential: group.sequential,
    layer: hook.layer,
    file: hook.file,
    path: hook.path,
    status: ignoredReason === undefined ? 'active' : 'ignored',
    ...(ignoredReason === undefined ? {} : { ignoredReason }),
    alsoDefinedIn: hook.alsoDefinedIn,
  };
}

/**
 * The rows of `hookwire hooks list`: events in catalogue order; within an event, the hooks that
 * run, in the order they are applied (merge order), then the hooks that are ignored.
 */
export function listEffectiveHooks(settings: EffectiveSettings): EffectiveHookRow[] {
  const rows: EffectiveHookRow[] = [];
  for (const event of HOOK_EVENT_NAMES) {
    for (const group of settings.events[event] ?? []) {
      for (const hook of group.hooks) rows.push(row(group, hook));
    }
    for (const { group, reason } of settings.ignored) {
      if (group.event !== event) continue;
      for (const hook of group.hooks) rows.push(row(group, hook, reason));
    }
  }
  return rows;
}
