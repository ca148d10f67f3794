import type { HookEventName } from '../../events/index.ts';
import type { HookConfig } from '../registry.ts';
import type { HookGroupConfig } from './hook-config.ts';
import type { AgentTypeSetting, ParsedSettingsFile } from './parse-settings-text.ts';
import type { SettingsLayer } from './settings-layer.ts';
import {
  definitionFingerprint,
  hookFingerprint,
  hookIdentity,
  settingFingerprint,
} from './hook-identity.ts';
import { changedNamedFiles } from './named-files.ts';
import type { LocatedRule, LocatedValue, SettingLocation } from './policy-settings.ts';
import type { PermissionMode } from '../../hooks/permissions/index.ts';
import type { DialectName } from '../dialects/vocabulary.ts';
import type { McpServerEntry } from './mcp-servers.ts';
import type { PluginDirectory } from '../plugins/plugin-directory.ts';

/**
 * The permission settings of every layer. Rules of all layers add up (`deny` beats `ask` beats
 * `allow` whatever the layer); `defaultMode` is the managed policy's when it sets one, else the
 * last layer's that does; `additionalDirectories` add up.
 */
export interface EffectivePermissions {
  /** Some layer has a `permissions` object: the permission layer is on. */
  readonly configured: boolean;
  readonly allow: readonly LocatedRule[];
  readonly deny: readonly LocatedRule[];
  readonly ask: readonly LocatedRule[];
  readonly defaultMode?: LocatedValue<PermissionMode>;
  readonly additionalDirectories: readonly LocatedValue[];
}

/**
 * A setting from a file inside the project that would loosen what the tools may do (an allow
 * rule, a `defaultMode` less strict than the one the user's files set, `plan` > `default` >
 * `acceptEdits` > `bypassPermissions`; an added directory, a passed variable) and
 * is not trusted: it does not apply until `hookwire hooks trust` trusts it (or `--trust-project`).
 */
export interface IgnoredSetting extends SettingLocation {
  /** `permissions.allow`, `permissions.defaultMode`, `permissions.additionalDirectories`, `passEnvironment`, `systemPrompt`. */
  readonly setting: string;
  readonly value: string;
  readonly fingerprint: string;
}

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
  /** The other tool the file belongs to (`.claude/settings.json`: `claude`); absent for hookwire's own. */
  readonly dialect?: DialectName;
}

/**
 * Why a group does not run: `policy` (the managed policy's `allowManagedHooksOnly`), `disabled`
 * (`disableAllHooks`), `untrusted` (a hook of a file inside the project that the user has not
 * trusted; see `HookTrust`).
 */
export type IgnoredKind = 'policy' | 'disabled' | 'untrusted';

/** A group that does not run, and why. */
export interface IgnoredHookGroup {
  readonly group: HookGroupConfig;
  readonly kind: IgnoredKind;
  readonly reason: string;
}

/**
 * Trust for hooks defined in files inside the project directory (a cloned repository is
 * untrusted input): such a hook runs only when its fingerprint (`hookFingerprint`) is in
 * `trusted`, or when `trustAll` (`--trust-project`, `HOOKWIRE_TRUST_PROJECT=1`) trusts the whole
 * project for this run. Managed, user and `--settings` files are the user's own and need no
 * trust, wherever they are.
 */
export interface HookTrust {
  readonly trusted: ReadonlySet<string>;
  readonly trustAll: boolean;
  /**
   * What the trust record says each trusted hook ran when it was trusted: by the fingerprint of
   * its definition without its files (`definitionFingerprint`), the `namedFiles` recorded then,
   * or `null` for a record from before files were recorded. Only explains why a hook whose
   * script changed is not trusted (`hooks list`, `run`); `trusted` alone decides.
   */
  readonly recorded?: ReadonlyMap<string, Readonly<Record<string, string>> | null>;
}

/** The trust options of `mergeSettingsFiles`: `HookTrust` and which files need it. */
export interface MergeTrust extends HookTrust {
  /** The files (as loaded) whose hooks need trust: those inside the project, by real path. */
  readonly filesNeedingTrust: ReadonlySet<string>;
}

/**
 * The merged hook configuration of every settings layer.
 *
 * - `events`: per canonical event, its groups in merge order — layers managed, user, project,
 *   local, extra; within a file, document order (an event's canonical key and its aliases in the
 *   order the keys appear). Events nobody configured are absent.
 * - A hook defined more than once (same identity, `hookIdentity`: its event, matcher key and
 *   every field but the cosmetic ones, so name and description do not count) runs once: the
 *   first occurrence in merge order is kept and lists the others in `alsoDefinedIn`; a group left without hooks is dropped.
 * - When the managed policy sets `allowManagedHooksOnly`, every other layer's groups are in
 *   `ignored` instead of `events`.
 */
export interface EffectiveSettings {
  readonly events: Readonly<Partial<Record<HookEventName, readonly HookGroupConfig[]>>>;
  readonly ignored: readonly IgnoredHookGroup[];
  readonly allowManagedHooksOnly: boolean;
  /** `disableAllHooks` is in effect: `managed` (no hook runs) or `user` (only managed hooks run). */
  readonly disableAllHooks: 'managed' | 'user' | false;
  /**
   * The files whose hooks need trust (inside the project, not managed/user/`--settings`);
   * empty when the settings were loaded without `HookTrust`.
   */
  readonly filesNeedingTrust: ReadonlySet<string>;
  /** Hooks skipped because they are not trusted (counted once per hook). */
  readonly untrustedHooks: number;
  /** The project is trusted for this run as a whole (`--trust-project`). */
  readonly trustAll: boolean;
  readonly permissions: EffectivePermissions;
  /** Variable names the shell tool keeps though they look like credentials (every layer's). */
  readonly passEnvironment: readonly string[];
  /** The `agents` of every file, in merge order (a later one of a name replaces an earlier one). */
  readonly agents: readonly AgentTypeSetting[];
  /**
   * `recordPayloads`: the managed file's value, else the last user or `--settings` file's; a
   * project file cannot turn it on. Default false (see the settings schema).
   */
  readonly recordPayloads: boolean;
  /** `maxContextTokens` of the last layer that sets it, with its file; absent: none does. */
  readonly maxContextTokens?: { readonly value: number; readonly file: string };
  /**
   * `systemPrompt` of the last layer that sets it and applies, with its file; one from a file
   * inside the project applies once trusted (else it is in `ignoredSettings`). Absent: none does.
   */
  readonly systemPrompt?: { readonly value: string; readonly file: string };
  /** `maxStopContinuations` of the last layer that sets it, with its file; absent: none does. */
  readonly maxStopContinuations?: { readonly value: number; readonly file: string };
  /**
   * Claude Code mods: `pluginConfigs` of the managed, user and `--settings` files (a later
   * file's entry for a plugin replaces an earlier one's; the managed one wins), and the managed
   * file's `prependPlugins` / `appendPlugins`. A project file's are not read.
   */
  readonly mods: EffectiveModsSettings;
  /** `recovery` of every layer, later layers overriding a tool an earlier one names. */
  readonly recovery: Readonly<Record<string, 'rerun' | 'report'>>;
  /** Loosening settings of files inside the project that are not trusted (see `IgnoredSetting`). */
  readonly ignoredSettings: readonly IgnoredSetting[];
  /**
   * The MCP servers to start: every layer's `mcpServers` and the project's `.mcp.json` (read
   * just before the project settings), by name, a later file's server replacing an earlier
   * one's of the same name; in order of first definition. Servers of files inside the project
   * that are not trusted are left out (in `ignoredMcpServers`), so they never replace yours.
   */
  readonly mcpServers: readonly McpServerEntry[];
  /** Servers of files inside the project that are not trusted: they do not start. */
  readonly ignoredMcpServers: readonly McpServerEntry[];
  readonly files: readonly SettingsFileStatus[];
  /**
   * The plugin directories to load (`--plugin-dir`, the `plugins` setting, the installed plugins
   * `enabledPlugins` turns on; see `hook-kinds/plugins/plugin-directory.ts`), trusted ones only:
   * a plugin inside the project, or named or enabled by a file inside it, runs once trusted.
   */
  readonly plugins: readonly PluginDirectory[];
  /** Plugins left out as not trusted, with the fingerprint `hooks trust` records for each. */
  readonly untrustedPlugins: readonly UntrustedPlugin[];
  /**
   * What could not be honoured in the other tools' files (a hook skipped, a field ignored, a
   * file that exists and is not read), one line each: `run` and `hooks fire` print them on
   * stderr, `hooks validate` lists them.
   */
  readonly warnings: readonly string[];
}

/** See `EffectiveSettings.mods`. */
export interface EffectiveModsSettings {
  readonly pluginConfigs: Readonly<
    Record<
      string,
      { readonly options?: Readonly<Record<string, unknown>>; readonly failClosed?: boolean }
    >
  >;
  readonly prependPlugins: readonly string[];
  readonly appendPlugins: readonly string[];
}

function modsOf(parsedFiles: readonly ParsedSettingsFile[]): EffectiveModsSettings {
  const yours = parsedFiles.filter((parsed) => parsed.layer === 'user' || parsed.layer === 'extra');
  const managed = parsedFiles.filter((parsed) => parsed.layer === 'managed');
  const pluginConfigs: Record<string, { options?: Record<string, unknown>; failClosed?: boolean }> =
    {};
  for (const parsed of [...yours, ...managed])
    Object.assign(pluginConfigs, parsed.mods?.pluginConfigs);
  return {
    pluginConfigs,
    prependPlugins: managed.flatMap((parsed) => parsed.mods?.prependPlugins ?? []),
    appendPlugins: managed.flatMap((parsed) => parsed.mods?.appendPlugins ?? []),
  };
}

/** A plugin left out as not trusted: `fingerprint` is what `hookwire hooks trust` records. */
export interface UntrustedPlugin {
  readonly plugin: PluginDirectory;
  /** The file (or `--plugin-dir DIR`) that named or enabled it. */
  readonly file: string;
  readonly fingerprint: string;
  /** Why it needs trust, and whether it changed since it was trusted. */
  readonly reason: string;
}

const noGroups: readonly HookGroupConfig[] = [];

function maxStopContinuationsOf(
  parsedFiles: readonly ParsedSettingsFile[],
): Pick<EffectiveSettings, 'maxStopContinuations'> {
  const setting = parsedFiles.findLast((parsed) => parsed.maxStopContinuations !== undefined);
  return setting?.maxStopContinuations === undefined
    ? {}
    : { maxStopContinuations: { value: setting.maxStopContinuations, file: setting.file } };
}

/**
 * The `systemPrompt` of the last file that sets it and applies: a project file's applies once
 * its value is trusted (a cloned repository must not rewrite what the agent is told unseen);
 * an untrusted one is appended to `ignoredSettings` and an earlier layer's applies instead.
 */
function systemPromptOf(
  parsedFiles: readonly ParsedSettingsFile[],
  trust: MergeTrust | undefined,
  ignoredSettings: IgnoredSetting[],
): Pick<EffectiveSettings, 'systemPrompt'> {
  let chosen: { value: string; file: string } | undefined;
  for (const parsed of parsedFiles) {
    const value = parsed.systemPrompt;
    if (value === undefined) continue;
    if (trust !== undefined && !trust.trustAll && trust.filesNeedingTrust.has(parsed.file)) {
      const fingerprint = settingFingerprint('systemPrompt', value);
      if (!trust.trusted.has(fingerprint)) {
        ignoredSettings.push({
          setting: 'systemPrompt',
          value,
          fingerprint,
          layer: parsed.layer,
          file: parsed.file,
          path: 'systemPrompt',
        });
        continue;
      }
    }
    chosen = { value, file: parsed.file };
  }
  return chosen === undefined ? {} : { systemPrompt: chosen };
}

function maxContextTokensOf(
  parsedFiles: readonly ParsedSettingsFile[],
): Pick<EffectiveSettings, 'maxContextTokens'> {
  const setting = parsedFiles.findLast((parsed) => parsed.maxContextTokens !== undefined);
  return setting?.maxContextTokens === undefined
    ? {}
    : { maxContextTokens: { value: setting.maxContextTokens, file: setting.file } };
}

function recordPayloadsOf(parsedFiles: readonly ParsedSettingsFile[]): boolean {
  const managed = parsedFiles.find(
    (parsed) => parsed.layer === 'managed' && parsed.recordPayloads !== undefined,
  );
  if (managed !== undefined) return managed.recordPayloads === true;
  const yours = parsedFiles.findLast(
    (parsed) =>
      (parsed.layer === 'user' || parsed.layer === 'extra') && parsed.recordPayloads !== undefined,
  );
  return yours?.recordPayloads === true;
}

/** The groups configured for `event`, in merge order (an empty list when there are none). */
export function hookGroupsFor(
  settings: EffectiveSettings,
  event: HookEventName,
): readonly HookGroupConfig[] {
  return settings.events[event] ?? noGroups;
}

/**
 * The key two hooks are the same hook by: everything that changes what runs and how (the hook's
 * identity, whatever its kind: see `hookIdentity`).
 */
export function duplicateKey(group: HookGroupConfig, hook: HookConfig): string {
  return hookIdentity(group, hook);
}

function describeLocation(hook: HookConfig): string {
  return `${hook.layer}: ${hook.file} at ${hook.path}`;
}

/**
 * Merges validated files, given in merge order (see `EffectiveSettings` for the rules). `files`
 * of the result lists the inputs as loaded.
 */
export function mergeSettingsFiles(
  parsedFiles: readonly ParsedSettingsFile[],
  options: { readonly trust?: MergeTrust } = {},
): EffectiveSettings {
  const policy = parsedFiles.find(
    (parsed) => parsed.layer === 'managed' && parsed.allowManagedHooksOnly,
  );
  const managedOff = parsedFiles.find(
    (parsed) => parsed.layer === 'managed' && parsed.disableAllHooks,
  );
  const userOff = parsedFiles.find(
    (parsed) => parsed.layer !== 'managed' && parsed.disableAllHooks,
  );
  const trust = options.trust;
  const ignored: IgnoredHookGroup[] = [];
  const active: HookGroupConfig[] = [];
  let untrustedHooks = 0;
  for (const parsed of parsedFiles) {
    for (const group of parsed.groups) {
      if (managedOff !== undefined) {
        ignored.push({
          group,
          kind: 'disabled',
          reason: `the managed policy ${managedOff.file} sets disableAllHooks: no hook runs`,
        });
      } else if (policy !== undefined && group.layer !== 'managed') {
        ignored.push({
          group,
          kind: 'policy',
          reason: `the managed policy ${policy.file} sets allowManagedHooksOnly: only managed hooks run`,
        });
      } else if (userOff !== undefined && group.layer !== 'managed') {
        ignored.push({
          group,
          kind: 'disabled',
          reason: `${userOff.file} sets disableAllHooks: only managed hooks run`,
        });
      } else if (
        trust === undefined ||
        trust.trustAll ||
        !trust.filesNeedingTrust.has(group.file)
      ) {
        active.push(group);
      } else {
        // Trust is per hook: a group may be split into its trusted and its untrusted hooks.
        const trusted = group.hooks.filter((hook) =>
          trust.trusted.has(hookFingerprint(group, hook)),
        );
        const untrusted = group.hooks.filter((hook) => !trusted.includes(hook));
        untrustedHooks += untrusted.length;
        if (trusted.length > 0)
          active.push(trusted.length === group.hooks.length ? group : { ...group, hooks: trusted });
        // One ignored group per reason, in the order of the hooks.
        const byReason = new Map<string, HookConfig[]>();
        for (const hook of untrusted) {
          const reason = untrustedReason(group, hook, trust.recorded);
          const list = byReason.get(reason) ?? [];
          list.push(hook);
          byReason.set(reason, list);
        }
        for (const [reason, hooks] of byReason)
          ignored.push({
            group: hooks.length === group.hooks.length ? group : { ...group, hooks },
            kind: 'untrusted',
            reason,
          });
      }
    }
  }

  // First pass: the first occurrence of each hook, and where else it is defined.
  const firstOccurrence = new Map<string, HookConfig>();
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
    const hooks: HookConfig[] = [];
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

  const policies = mergePolicies(parsedFiles, trust);
  const systemPrompt = systemPromptOf(parsedFiles, trust, policies.ignoredSettings);
  return {
    events,
    ignored,
    ...policies,
    agents: parsedFiles.flatMap((parsed) => parsed.agents),
    ...maxContextTokensOf(parsedFiles),
    recordPayloads: recordPayloadsOf(parsedFiles),
    ...maxStopContinuationsOf(parsedFiles),
    mods: modsOf(parsedFiles),
    recovery: Object.assign({}, ...parsedFiles.map((parsed) => parsed.recovery ?? {})) as Record<
      string,
      'rerun' | 'report'
    >,
    ...systemPrompt,
    ...mergeMcpServers(parsedFiles, trust),
    allowManagedHooksOnly: policy !== undefined,
    disableAllHooks: managedOff !== undefined ? 'managed' : userOff !== undefined ? 'user' : false,
    filesNeedingTrust: trust?.filesNeedingTrust ?? new Set(),
    untrustedHooks,
    trustAll: trust?.trustAll ?? false,
    warnings: [],
    plugins: [],
    untrustedPlugins: [],
    files: parsedFiles.map((parsed) => ({
      layer: parsed.layer,
      file: parsed.file,
      status: 'loaded',
    })),
  };
}

/**
 * Why `hook` (of a file needing trust) is not trusted: a script changed since the user trusted
 * it (the trust record has the same definition with other file contents), or it was never
 * trusted.
 */
function untrustedReason(
  group: HookGroupConfig,
  hook: HookConfig,
  recorded: HookTrust['recorded'],
): string {
  const current = hook.namedFiles;
  const before =
    current === undefined || recorded === undefined
      ? undefined
      : recorded.get(definitionFingerprint(group, hook));
  if (current !== undefined && before !== undefined) {
    const review = 'review it, then run "hookwire hooks trust"';
    if (before === null)
      return `trusted before hookwire checked the files a hook runs (${Object.keys(current).join(', ')}): ${review}`;
    const changed = changedNamedFiles(before, current);
    if (changed.length > 0) return `script changed since trusted: ${changed.join(', ')}; ${review}`;
  }
  return 'defined inside the project and not trusted: review it, then run "hookwire hooks trust"';
}

/** Merges the MCP servers of the files by name, leaving out untrusted project ones. */
function mergeMcpServers(
  parsedFiles: readonly ParsedSettingsFile[],
  trust: MergeTrust | undefined,
): { mcpServers: McpServerEntry[]; ignoredMcpServers: McpServerEntry[] } {
  const byName = new Map<string, McpServerEntry>();
  const ignoredMcpServers: McpServerEntry[] = [];
  for (const parsed of parsedFiles) {
    for (const server of parsed.mcpServers) {
      const admitted =
        trust === undefined ||
        trust.trustAll ||
        !trust.filesNeedingTrust.has(server.file) ||
        trust.trusted.has(server.fingerprint);
      if (admitted) byName.set(server.name, server);
      else ignoredMcpServers.push(server);
    }
  }
  return { mcpServers: [...byName.values()], ignoredMcpServers };
}

/** How strict each permission mode is: a higher one allows less without asking. */
const MODE_STRICTNESS: Readonly<Record<PermissionMode, number>> = {
  bypassPermissions: 0,
  acceptEdits: 1,
  default: 2,
  plan: 3,
};

/** Merges the policy settings of the files, leaving out untrusted loosening ones. */
function mergePolicies(
  parsedFiles: readonly ParsedSettingsFile[],
  trust: MergeTrust | undefined,
): {
  permissions: EffectivePermissions;
  passEnvironment: string[];
  ignoredSettings: IgnoredSetting[];
} {
  const ignoredSettings: IgnoredSetting[] = [];
  const admitted = (setting: string, entry: SettingLocation, value: string): boolean => {
    if (trust === undefined || trust.trustAll || !trust.filesNeedingTrust.has(entry.file))
      return true;
    const fingerprint = settingFingerprint(setting, value);
    if (trust.trusted.has(fingerprint)) return true;
    ignoredSettings.push({
      setting,
      value,
      fingerprint,
      layer: entry.layer,
      file: entry.file,
      path: entry.path,
    });
    return false;
  };
  const allow: LocatedRule[] = [];
  const deny: LocatedRule[] = [];
  const ask: LocatedRule[] = [];
  const additionalDirectories: LocatedValue[] = [];
  const passEnvironment: string[] = [];
  let configured = false;
  let defaultMode: LocatedValue<PermissionMode> | undefined;
  let managedMode: LocatedValue<PermissionMode> | undefined;
  for (const parsed of parsedFiles) {
    const policy = parsed.policy;
    configured ||= policy.hasPermissions;
    // Tightening settings (deny, ask) apply at once, from any file.
    // Loops, not push(...list): a spread of a long list overflows the call stack.
    for (const rule of policy.deny) deny.push(rule);
    for (const rule of policy.ask) ask.push(rule);
    for (const rule of policy.allow)
      if (admitted('permissions.allow', rule, rule.source)) allow.push(rule);
    for (const directory of policy.additionalDirectories)
      if (admitted('permissions.additionalDirectories', directory, directory.value))
        additionalDirectories.push(directory);
    for (const name of policy.passEnvironment)
      if (admitted('passEnvironment', name, name.value) && !passEnvironment.includes(name.value))
        passEnvironment.push(name.value);
    const mode = policy.defaultMode;
    if (mode === undefined) continue;
    // A mode less strict than the one in effect so far (the user's) loosens: from a project
    // file it waits for trust, so `default` there cannot override the user's `plan`.
    const loosens = MODE_STRICTNESS[mode.value] < MODE_STRICTNESS[defaultMode?.value ?? 'default'];
    if (loosens && !admitted('permissions.defaultMode', mode, mode.value)) continue;
    if (parsed.layer === 'managed') managedMode = mode;
    else defaultMode = mode;
  }
  const mode = managedMode ?? defaultMode;
  return {
    permissions: {
      configured,
      allow,
      deny,
      ask,
      ...(mode === undefined ? {} : { defaultMode: mode }),
      additionalDirectories,
    },
    passEnvironment,
    ignoredSettings,
  };
}
