import {
  HOOK_EVENT_NAMES,
  type HookEventName,
  type RegisteredEventName,
} from '../../events/index.ts';
import { formatDuration } from '../duration.ts';
import type { EffectiveSettings } from './effective-settings.ts';
import { kindOf, type HookConfig } from '../registry.ts';
import type { HookGroupConfig } from './hook-config.ts';
import type { SettingsLayer } from './settings-layer.ts';
import { definitionFingerprint, hookFingerprint } from './hook-identity.ts';
import type { DialectName } from '../dialects/vocabulary.ts';

/** One row of `hookwire hooks list`: a hook, its group and where it was defined. */
export interface EffectiveHookRow {
  readonly event: HookEventName;
  readonly registeredAs: RegisteredEventName;
  /** The matcher as written, `*` when it matches everything. */
  readonly matcher: string;
  readonly name: string;
  /** What the hook runs: its command (command, process), url (http) or prompt (prompt). */
  readonly command: string;
  /** The deadline, readable (`"30s"`, `"500ms"`). */
  readonly timeout: string;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
  readonly sequential: boolean;
  /** The hook runs under bubblewrap (`"sandbox": true`). */
  readonly sandbox?: true;
  /** The hook gets the environment without credentials (`"environment": "scrubbed"`). */
  readonly environment?: 'scrubbed';
  readonly layer: SettingsLayer;
  /** The other tool the hook's file belongs to (`claude`, `gemini`, `codex`, `kimi`); absent for hookwire's own files. */
  readonly dialect?: DialectName;
  /** Claude Code's `if` condition, when the hook has one. */
  readonly if?: string;
  readonly file: string;
  readonly path: string;
  /** `active`: it runs; `ignored`: it does not, for `ignoredReason`. */
  readonly status: 'active' | 'ignored';
  readonly ignoredReason?: string;
  /**
   * `trusted`: defined inside the project and trusted (by its fingerprint, or for this run by
   * `--trust-project`); `untrusted`: defined inside the project and not trusted, so it does not
   * run; `not-required`: the user's own (managed, user, `--settings`, or outside the project).
   */
  readonly trust: 'trusted' | 'untrusted' | 'not-required';
  /** The SHA-256 of the hook's normalized definition (`hookFingerprint`): what trust records. */
  readonly fingerprint: string;
  /**
   * The files inside the project the hook runs (its script), each `sha256:HEX` of its content or
   * `absent`: part of the fingerprint, so a changed script is a hook to trust again.
   */
  readonly namedFiles?: Readonly<Record<string, string>>;
  /** With `namedFiles`: the fingerprint without them (`definitionFingerprint`). */
  readonly definitionFingerprint?: string;
  readonly alsoDefinedIn: readonly string[];
}

function row(
  settings: EffectiveSettings,
  group: HookGroupConfig,
  hook: HookConfig,
  ignored?: { readonly kind: string; readonly reason: string },
): EffectiveHookRow {
  const ignoredReason = ignored?.reason;
  const trust = !settings.filesNeedingTrust.has(hook.file)
    ? 'not-required'
    : ignored?.kind === 'untrusted'
      ? 'untrusted'
      : 'trusted';
  return {
    event: group.event,
    registeredAs: group.registeredAs,
    matcher: group.matcher.kind === 'all' ? '*' : group.matcherSource,
    name: hook.name,
    command: kindOf(hook).target(hook),
    timeout: formatDuration(hook.timeoutMs),
    timeoutMs: hook.timeoutMs,
    failClosed: hook.failClosed,
    sequential: group.sequential,
    // Only command hooks are confined this way.
    ...(hook.type === 'command' && hook.sandbox === true ? { sandbox: true as const } : {}),
    ...(hook.type === 'command' && hook.environment === 'scrubbed'
      ? { environment: 'scrubbed' as const }
      : {}),
    layer: hook.layer,
    ...(group.dialect === undefined ? {} : { dialect: group.dialect }),
    ...('if' in hook && typeof hook.if === 'string' ? { if: hook.if } : {}),
    file: hook.file,
    path: hook.path,
    status: ignoredReason === undefined ? 'active' : 'ignored',
    ...(ignoredReason === undefined ? {} : { ignoredReason }),
    trust,
    fingerprint: hookFingerprint(group, hook),
    ...(hook.namedFiles === undefined
      ? {}
      : {
          namedFiles: hook.namedFiles,
          definitionFingerprint: definitionFingerprint(group, hook),
        }),
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
      for (const hook of group.hooks) rows.push(row(settings, group, hook));
    }
    for (const ignored of settings.ignored) {
      if (ignored.group.event !== event) continue;
      for (const hook of ignored.group.hooks)
        rows.push(row(settings, ignored.group, hook, ignored));
    }
  }
  return rows;
}
