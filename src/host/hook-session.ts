/**
 * `openHookSession`: the one place that turns "a project directory, some settings files and some
 * in-process hooks" into the `HookStack` a run fires through, plus everything that stack keeps
 * alive. `hookwire run`, `hookwire hooks fire` and the embedding adapters (`hookwire/ai-sdk`,
 * `hookwire/claude-agent-sdk`) all call it, so settings load the same way everywhere: every
 * layer, the extra files, and whatever later stages (dialects of other tools, trust of project
 * hooks, long-lived hook processes, MCP servers) add here. MCP servers (`mcpServers` of the
 * settings and the project's `.mcp.json`) start here when the caller asks (`mcp`), so the CLI
 * and the embeddings get the same servers, trusted the same way.
 *
 * Adding a stage: load or filter inside `openHookSession`, and register what must be stopped at
 * the end with `defer` — `close()` runs the disposers in reverse order of registration, each once,
 * and keeps going when one throws.
 */
import { resolve } from 'node:path';
import type { LanguageModel } from '../content/index.ts';
import type { AgentHook } from '../hooks/agent-hook.ts';
import type { AgentPermissions, PermissionMode } from '../hooks/permissions/index.ts';
import { HookStack, type HookStackOptions } from '../hooks/stack/hook-stack.ts';
import type { CommandHookOptions } from '../hook-kinds/group/external-hook.ts';
import { HookKindStates } from '../hook-kinds/hook-kind.ts';
import type { HookRunRecord } from '../hook-kinds/hook-run.ts';
import type { HookRunVerdict } from '../hook-kinds/group/hook-verdict.ts';
import type { HookProcessOptions } from '../hook-kinds/group/run-hook-group.ts';
import type { CommandRunner, CommandRunnerOptions } from '../supervision/index.ts';
import { deferredRunner } from '../supervision/deferred-runner.ts';
import { loadSettings } from '../hook-kinds/settings/load-settings.ts';
import type { McpConnections, StartMcpServersOptions } from '../mcp/mcp-connections.ts';
import type { PluginDirectory } from '../hook-kinds/plugins/plugin-directory.ts';
import {
  openClaudeEnvFile,
  wantsClaudeEnvFile,
} from '../hook-kinds/dialects/claude/claude-env-file.ts';
import type { EffectiveSettings, HookTrust } from '../hook-kinds/settings/effective-settings.ts';
import type { SettingsEnvironment } from '../hook-kinds/settings/settings-layer.ts';
import type { OpenedMods } from './mods/open-mods.ts';
import {
  projectKey,
  readTrustStore,
  recordedNamedFiles,
  trustStoreFile,
  trustedFingerprints,
} from '../hook-kinds/settings/trust-store.ts';

/**
 * The trust `hookwire run` gives a project's hooks: all of them with `trustAll`
 * (`--trust-project`) or `HOOKWIRE_TRUST_PROJECT=1`, else those the trust record
 * (`~/.hookwire/trusted-hooks.json`) holds for the project's real path. A `TrustStoreError`
 * propagates. The CLI and the embeddings (`hookwire/ai-sdk`, …) both resolve trust here.
 */
export async function projectTrust(options: {
  readonly projectDir: string;
  readonly trustAll?: boolean;
  readonly env?: SettingsEnvironment & { readonly HOOKWIRE_TRUST_PROJECT?: string | undefined };
}): Promise<HookTrust> {
  const env = options.env ?? process.env;
  const trustAll = options.trustAll === true || env.HOOKWIRE_TRUST_PROJECT === '1';
  if (trustAll) return { trusted: new Set(), trustAll };
  const store = await readTrustStore(trustStoreFile(env));
  const project = await projectKey(resolve(options.projectDir));
  return {
    trusted: trustedFingerprints(store, project),
    trustAll,
    recorded: recordedNamedFiles(store, project),
  };
}

/** Which settings a hook session loads (`hookwire hooks list` and `validate` read the same). */
/**
 * The permission layer the settings ask for: on when a settings file has `permissions` or a mode
 * is given (`mode`: `hookwire run --permission-mode` or the embedding's `permissionMode`, which
 * overrides `permissions.defaultMode`); `undefined` otherwise, and every call runs as before
 * rules existed. The one place `hookwire run` and the embeddings derive it.
 */
export function settingsPermissions(
  settings: EffectiveSettings,
  mode?: PermissionMode,
): AgentPermissions | undefined {
  const { permissions } = settings;
  const effective = mode ?? permissions.defaultMode?.value;
  if (!permissions.configured && effective === undefined) return undefined;
  return {
    rules: { allow: permissions.allow, deny: permissions.deny, ask: permissions.ask },
    mode: effective ?? 'default',
  };
}

export interface HookSettingsOptions {
  /** The project directory: its `.hookwire/` settings load and hooks run there. */
  readonly projectDir: string;
  /**
   * Extra settings files (`hookwire run --settings`), loaded after every layer, in order; each
   * must exist. Relative paths resolve against `settingsBaseDir`.
   */
  readonly settingsFiles?: readonly string[];
  /** Where relative `settingsFiles` resolve. Default: the process's working directory (the CLI's rule). */
  readonly settingsBaseDir?: string;
  /** Environment for settings discovery (`HOOKWIRE_HOME`, `HOOKWIRE_MANAGED_SETTINGS`). Default `process.env`. */
  readonly env?: SettingsEnvironment;
  /**
   * Trust for the hooks of settings files inside the project (see `HookTrust`); the CLI passes
   * the trust record's. Without it every hook runs (a caller that vouches for its project).
   */
  readonly trust?: HookTrust;
  /**
   * Read the other tools' settings files (Claude Code, Gemini CLI, Codex, Kimi Code; see
   * `src/hook-kinds/dialects/`) as tagged layers. Default true, within the `dialects` setting;
   * false (`--no-dialects`) reads none.
   */
  readonly dialects?: boolean;
  /**
   * Claude Code plugin directories (`--plugin-dir`, repeatable), loaded before the `plugins`
   * setting and the installed plugins (`src/hook-kinds/plugins/`); relative paths resolve against
   * `settingsBaseDir`. Each must exist.
   */
  readonly pluginDirs?: readonly string[];
}

/**
 * Loads the settings of every layer for `projectDir` plus `settingsFiles`: what every command and
 * embedding reads. Throws `SettingsError` listing every issue of every file.
 */
export function loadHookSettings(options: HookSettingsOptions): Promise<EffectiveSettings> {
  const baseDir = options.settingsBaseDir ?? process.cwd();
  return loadSettings({
    projectDir: resolve(options.projectDir),
    extraFiles: (options.settingsFiles ?? []).map((file) => resolve(baseDir, file)),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.dialects === undefined ? {} : { dialects: options.dialects }),
    ...(options.pluginDirs === undefined
      ? {}
      : { pluginDirs: options.pluginDirs, pluginBaseDir: baseDir }),
  });
}

/** Options of `openHookSession`. */
export interface HookSessionOptions extends HookSettingsOptions {
  /**
   * In-process hooks, composed in the same stack as the settings' command hooks, after them:
   * policy from settings files runs first (a deny there short-circuits), and in-process hooks
   * see the arguments and requests the settings' hooks rewrote. Default: none.
   */
  readonly hooks?: readonly AgentHook[];
  /** How command hooks spawn (see `createCommandRunner`). Default `helper`. */
  readonly runnerMode?: CommandRunnerOptions['mode'];
  /** Called for every command-hook run as it settles (stream-json output, diagnostics). */
  readonly onHookRun?: (record: HookRunRecord, verdict: HookRunVerdict) => void;
  /** Options of the session's stack (name, hook-error policy). */
  readonly stack?: HookStackOptions;
  /**
   * The judge of `type: "prompt"` hooks that name no `model` (the run's model), asked for when
   * the first prompt hook runs. Without it, prompt hooks answer a failure (a warning, or a denial
   * when they fail closed).
   */
  readonly promptModel?: () => Promise<LanguageModel>;
  /** Resolves a prompt hook's `model` of the form `PROVIDER:MODEL` (the CLI's model specs). */
  readonly resolveModel?: (spec: string) => Promise<LanguageModel>;
  /**
   * How hooks with `"environment": "scrubbed"` or `"sandbox": true` are confined; a function
   * gets the loaded settings (e.g. for their `passEnvironment`).
   */
  readonly confinement?: HookProcessOptions | ((settings: EffectiveSettings) => HookProcessOptions);
  /**
   * Start the settings' MCP servers with the session (`true`, or options: `onWarning` gets one
   * line per server that fails to start; `env` is what `${VAR}` expands from and servers
   * inherit). Every server starts in parallel within its start-up deadline; `openHookSession`
   * resolves once each is connected or has failed, and `close()` stops them. Untrusted project
   * servers (`settings.ignoredMcpServers`) never start. Default: off (`session.mcp` is empty).
   */
  readonly mcp?: boolean | Omit<StartMcpServersOptions, 'projectDir'>;
  /**
   * The mods of the session's plugins (`hooks/hooks.json` `modules`; see `src/host/mods/`) run in
   * its stack. A mod that needs an event or a capability hookwire does not provide is refused,
   * and `openHookSession` throws `ModsRefusedError` naming each one; `modsPartial`
   * (`--mods-partial`) leaves such mods out instead, with a warning each
   * (`HookSession.modWarnings`). Default false.
   */
  readonly modsPartial?: boolean;
  /** The run's permission mode (`--permission-mode`), for the mods' `tool.check` verdicts. */
  readonly permissionMode?: PermissionMode;
}

/** What `openHookSession` opened: the stack to fire through and what keeps it running. */
export interface HookSession {
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** The merged settings every layer and extra file contributed. */
  readonly settings: EffectiveSettings;
  /**
   * The session's plugin directories (`settings.plugins`: `--plugin-dir`, the `plugins` setting,
   * the installed plugins `enabledPlugins` turns on), trusted ones only, in load order. The hook
   * kinds get the same list (`HookKindHost.plugins`).
   */
  readonly plugins: readonly PluginDirectory[];
  /** The command runner the settings' hooks (and the shell tool, if the caller wants) spawn through. */
  readonly runner: CommandRunner;
  /** The settings' command hooks, one per group, in merge order. */
  readonly commandHooks: readonly AgentHook[];
  /** Every hook of the session: the command hooks, then the in-process hooks. */
  readonly stack: HookStack;
  /** The options command hooks were built with (for callers that adapt groups themselves). */
  readonly commandHookOptions: CommandHookOptions;
  /**
   * The session's resources of the kinds its settings use (process hooks' processes, the prompt
   * hooks' judge): see `HookKind.open`.
   */
  readonly kinds: HookKindStates;
  /** The session's MCP servers and their tools (none unless `mcp` was asked for). */
  readonly mcp: McpConnections;
  /**
   * Claude Code's `CLAUDE_ENV_FILE` (`dialects/claude-env-file.ts`): set when a Claude Code file
   * has `SessionStart` hooks; give it to the shell tool (`envFile`) so their exports apply.
   */
  readonly claudeEnvFile?: string;
  /** The session's Claude Code mods, when some plugin has them. */
  readonly mods?: OpenedMods;
  /** One line per mod left out (`mods.partial`). */
  readonly modWarnings: readonly string[];
  /** Registers a disposer `close()` runs (in reverse order of registration). */
  defer(dispose: () => unknown): void;
  /**
   * Stops everything the session started (hook processes, the runner, servers), in reverse order
   * of registration. Idempotent; every disposer runs even when an earlier one throws, and the
   * first error is rethrown at the end.
   */
  close(): Promise<void>;
}

/**
 * Loads the settings of every layer for `projectDir` plus `settingsFiles`, adapts their groups to
 * command hooks, and composes them with the in-process `hooks` in one `HookStack`. Throws
 * `SettingsError` (every issue of every file) before anything is started.
 */
export async function openHookSession(options: HookSessionOptions): Promise<HookSession> {
  const projectDir = resolve(options.projectDir);
  const settings = await loadHookSettings(options);

  const disposers: (() => unknown)[] = [];
  const hooked = hasHooks(settings) || settings.plugins.length > 0;
  // The helper starts with the session only when the settings have hooks, whose first run must
  // not wait for it; otherwise on first use (a shell tool call), so a session that spawns nothing
  // starts nothing, and does not even load the spawn machinery.
  const runnerOptions: CommandRunnerOptions = {
    ...(options.runnerMode === undefined ? {} : { mode: options.runnerMode }),
    start: 'eager',
  };
  const loadRunner = async (): Promise<CommandRunner> =>
    (await import('../supervision/create-command-runner.ts')).createCommandRunner(runnerOptions);
  const runner = hooked ? await loadRunner() : deferredRunner(loadRunner);
  disposers.push(() => runner.close());
  // The kinds (and the wire's schemas) load only when the settings have hooks.
  const opened = hooked
    ? await (
        await import('./open-hook-kinds.ts')
      )
        .openHookKinds(
          settings,
          {
            projectDir,
            plugins: settings.plugins,
            ...(options.promptModel === undefined ? {} : { promptModel: options.promptModel }),
            ...(options.resolveModel === undefined ? {} : { resolveModel: options.resolveModel }),
          },
          (dispose) => disposers.push(dispose),
        )
        .catch(async (error: unknown) => {
          await disposeAll(disposers);
          throw error;
        })
    : { states: new HookKindStates(), hooks: [] };
  const kinds = opened.states;
  // Claude Code's CLAUDE_ENV_FILE, made only when a Claude Code file has SessionStart hooks.
  const envFile = wantsClaudeEnvFile(settings.events.SessionStart)
    ? await openClaudeEnvFile()
    : undefined;
  if (envFile !== undefined) disposers.push(() => envFile.close());
  const commandHookOptions: CommandHookOptions = {
    runner,
    projectDir,
    kinds,
    ...(envFile === undefined ? {} : { claudeEnvFile: envFile.path }),
    ...(options.onHookRun === undefined ? {} : { onHookRun: options.onHookRun }),
    ...(options.confinement === undefined
      ? {}
      : {
          confinement:
            typeof options.confinement === 'function'
              ? options.confinement(settings)
              : options.confinement,
        }),
  };
  // Claude Code mods load (and a refusal throws) before anything else starts. Their tool.check
  // core is the settings' permission layer (with `permissionMode` when the host gives one).
  const modsPermissions = settingsPermissions(settings, options.permissionMode);
  const mods =
    settings.plugins.length === 0
      ? undefined
      : await (
          await import('./mods/open-mods.ts')
        )
          .openMods({
            plugins: settings.plugins,
            settings: settings.mods,
            ...(options.modsPartial === undefined ? {} : { partial: options.modsPartial }),
            projectDir,
            runner,
            ...(options.env === undefined ? {} : { env: options.env }),
            ...(options.promptModel === undefined ? {} : { promptModel: options.promptModel }),
            ...(options.resolveModel === undefined ? {} : { resolveModel: options.resolveModel }),
            ...(modsPermissions === undefined ? {} : { permissions: modsPermissions }),
          })
          .catch(async (error: unknown) => {
            await disposeAll(disposers);
            throw error;
          });
  if (mods !== undefined) disposers.push(() => mods.close());
  const createHooks = hasHooks(settings)
    ? (await import('../hook-kinds/group/create-hooks.ts')).createCommandHooks
    : undefined;
  // Claude Code's order: the managed policy's groups before every mod, the other settings hooks
  // inside the mods' core; the mods' post-tool side after every PostToolUse hook. (Groups of
  // different events never meet, so the managed ones of every event can go first.)
  const managedHooks =
    createHooks === undefined || mods === undefined
      ? []
      : createHooks(managedGroups(settings, true), commandHookOptions);
  const otherSettings = mods === undefined ? settings : managedGroups(settings, false);
  // A mod on classic.<Event> wraps that event's other settings hooks: they run as its core.
  const wraps = createHooks === undefined ? [] : (mods?.wraps ?? []);
  const wrappedHooks = wraps.flatMap((event) => {
    const hooks = createHooks?.(eventGroups(otherSettings, [event], true), commandHookOptions);
    if (hooks !== undefined) mods?.wrap(event, new HookStack(hooks, options.stack));
    return hooks ?? [];
  });
  const otherHooks =
    createHooks === undefined
      ? []
      : createHooks(
          wraps.length === 0 ? otherSettings : eventGroups(otherSettings, wraps, false),
          commandHookOptions,
        );
  const commandHooks = [...managedHooks, ...wrappedHooks, ...otherHooks];
  // The kinds' own hooks go last: e.g. hook processes stop after every SessionEnd hook answered.
  const stack = new HookStack(
    [
      ...managedHooks,
      ...(mods === undefined ? [] : [mods.outer]),
      ...otherHooks,
      ...(options.hooks ?? []),
      ...(mods === undefined ? [] : [mods.inner]),
      ...opened.hooks,
    ],
    options.stack,
  );
  // The MCP client (and its SDK) loads only when servers are asked for and configured.
  const mcp =
    options.mcp === undefined || options.mcp === false || settings.mcpServers.length === 0
      ? NO_MCP
      : await (
          await import('../mcp/mcp-connections.ts')
        ).startMcpServers(settings.mcpServers, {
          ...(options.mcp === true ? {} : options.mcp),
          projectDir,
        });
  disposers.push(() => mcp.close());

  let closing: Promise<void> | undefined;
  return {
    projectDir,
    settings,
    plugins: settings.plugins,
    runner,
    commandHooks,
    stack,
    commandHookOptions,
    kinds,
    mcp,
    ...(envFile === undefined ? {} : { claudeEnvFile: envFile.path }),
    ...(mods === undefined ? {} : { mods }),
    modWarnings: mods?.warnings ?? [],
    defer(dispose) {
      disposers.push(dispose);
    },
    close() {
      closing ??= disposeAll(disposers);
      return closing;
    },
  };
}

/** The settings with only the groups of the managed layer (`managed`), or only the others. */
function managedGroups(settings: EffectiveSettings, managed: boolean): EffectiveSettings {
  return {
    ...settings,
    events: Object.fromEntries(
      Object.entries(settings.events).map(([event, groups]) => [
        event,
        groups.filter((group) => (group.layer === 'managed') === managed),
      ]),
    ),
  };
}

/** The settings with only the groups of `events` (`only`), or with every other event's. */
function eventGroups(
  settings: EffectiveSettings,
  events: readonly string[],
  only: boolean,
): EffectiveSettings {
  return {
    ...settings,
    events: Object.fromEntries(
      Object.entries(settings.events).map(([name, groups]) => [
        name,
        events.includes(name) === only ? groups : [],
      ]),
    ),
  };
}

function hasHooks(settings: EffectiveSettings): boolean {
  return Object.values(settings.events).some((groups) => groups.length > 0);
}

const NO_MCP: McpConnections = Object.freeze({
  servers: [],
  tools: [],
  exits: () => [],
  close: () => Promise.resolve(),
});

async function disposeAll(disposers: (() => unknown)[]): Promise<void> {
  let failure: { readonly error: unknown } | undefined;
  while (disposers.length > 0) {
    const dispose = disposers.pop();
    try {
      await dispose?.();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== undefined) throw failure.error;
}
