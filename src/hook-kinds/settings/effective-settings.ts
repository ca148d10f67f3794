import type { HookEventName } from '../../wire/event-names.ts';
import type { CommandHookConfig, HookGroupConfig } from './hook-config.ts';
import type { ParsedSettingsFile } from './parse-settings-text.ts';
import type { SettingsLayer } from './settings-layer.ts';

/** What happened to one settings file during loading. */
export interface SettingsFileStatus {
  readonly layer: SettingsLayer;
  readonly file: string;
  /**
   * `loaded`; `missing` (a layer file that does not exist, which is fine); `duplicate` (the
   * same path as an earlier layer's file, e.g. a project directory that is the home directory:
   * read once, under the earlier layer).
   */
  readonly status: 'loaded' | 'missing' | 'duplicate';
}

/** A group that does not run, and why (e.g. the managed policy's `allowManagedHooksOnly`). */
export interface IgnoredHookGroup {
  readonly group: HookGroupConfig;
  readonly reason: string;
}

/**
 * The merged hook configuration of every settings layer.
 *
 * - `events`: per canonical event, its groups in merge order — layers managed, user, project,
 *   local, extra; within a file, document order (an event's canonical key and its aliases in the
 *   order the keys appear). Events nobody configured are absent.
 * - A hook defined more than once (same canonical event, matcher key, command, timeout and
 *   failClosed; name and description do not count) runs once: the first occurrence in merge
 *   order is kept and lists the others in `alsoDefinedIn`; a group left without hooks is dropped.
 * - When the managed policy sets `allowManagedHooksOnly`, every other layer's groups are in
 *   `ignored` instead of `events`.
 */
export interface EffectiveSettings {
  readonly events: Readonly<Partial<Record<HookEventName, readonly HookGroupConfig[]>>>;
  readonly ignored: readonly IgnoredHookGroup[];
  readonly allowManagedHooksOnly: boolean;
  readonly files: readonly SettingsFileStatus[];
}

const noGroups: readonly HookGroupConfig[] = [];

/** The groups configured for `event`, in merge order (an empty list when there are none). */
export function hookGroupsFor(
  settings: EffectiveSettings,
  event: HookEventName,
): readonly HookGroupConfig[] {
  return settings.events[event] ?? noGroups;
}

/** The key two hooks are the same hook by: everything that changes what runs and how. */
export function duplicateKey(group: HookGroupConfig, hook: CommandHookConfig): string {
  return JSON.stringify([
    group.event,
    group.matcher.key,
    hook.type,
    hook.command,
    hook.timeoutMs,
    hook.failClosed,
  ]);
}

function describeLocation(hook: CommandHookConfig): string {
  return `${hook.layer}: ${hook.file} at ${hook.path}`;
}

/**
 * Merges validated files, given in merge order (see `EffectiveSettings` for the rules). `files`
 * of the result lists the inputs as loaded.
 */
export function mergeSettingsFiles(parsedFiles: readonly ParsedSettingsFile[]): EffectiveSettings {
  const policy = parsedFiles.find(
    (parsed) => parsed.layer === 'managed' && parsed.allowManagedHooksOnly,
  );
  const ignored: IgnoredHookGroup[] = [];
  const active: HookGroupConfig[] = [];
  for (const parsed of parsedFiles) {
    for (const group of parsed.groups) {
      if (policy !== undefined && group.layer !== 'managed') {
        ignored.push({
          group,
          reason: `the managed policy ${policy.file} sets allowManagedHooksOnly: only managed hooks run`,
        });
      } else active.push(group);
    }
  }

  // First pass: the first occurrence of each hook, and where else it is defined.
  const firstOccurrence = new Map<string, CommandHookConfig>();
  const others = new Map<string, string[]>();
  for (const group of active) {
    for (const hook of group.hooks) {
      const key = duplicateKey(group, hook);
      if (!firstOccurrence.has(key)) firstOccurrence.set(key, hook);
      else {
        const list = others.get(key) ?? [];
        list.push(describeLocation(hook));
        others.set(key, list);
      }
    }
  }

  const events: Partial<Record<HookEventName, HookGroupConfig[]>> = {};
  for (const group of active) {
    const hooks: CommandHookConfig[] = [];
    for (const hook of group.hooks) {
      const key = duplicateKey(group, hook);
      if (firstOccurrence.get(key) !== hook) continue;
      const alsoDefinedIn = others.get(key);
      hooks.push(alsoDefinedIn === undefined ? hook : { ...hook, alsoDefinedIn });
    }
    if (hooks.length === 0) continue;
    const list = (events[group.event] ??= []);
    list.push(
      hooks.length === group.hooks.length &&
        hooks.every((hook, index) => hook === group.hooks[index])
        ? group
        : { ...group, hooks },
    );
  }

  return {
    events,
    ignored,
    allowManagedHooksOnly: policy !== undefined,
    files: parsedFiles.map((parsed) => ({
      layer: parsed.layer,
      file: parsed.file,
      status: 'loaded',
    })),
  };
}
