import { stat } from 'node:fs/promises';
import { visibleText } from './output/visible-text.ts';
import { resolve } from 'node:path';
import {
  loadHookSettings,
  openHookSession,
  projectTrust,
  type HookSession,
  type HookSessionOptions,
} from '../host/hook-session.ts';
import type { EffectiveSettings, HookTrust } from '../hook-kinds/settings/index.ts';
import { CliError } from './cli-error.ts';
import { shellQuote } from '../supervision/process-confinement.ts';

/** The options every settings-reading command shares. */
export interface SettingsCommandOptions {
  /** `--settings FILE`, repeatable; loaded after the usual layers, in order. */
  readonly settings?: readonly string[];
  /** `--cwd DIR`: the project directory; default the process's working directory. */
  readonly cwd?: string;
  /** `--trust-project` (run, hooks fire): trust the project's hooks for this invocation. */
  readonly trustProject?: boolean;
  /** `--no-dialects` sets false: read none of the other tools' settings files. */
  readonly dialects?: boolean;
  /** `--plugin-dir DIR`, repeatable: Claude Code plugin directories to load. */
  readonly pluginDir?: readonly string[];
}

/** The project directory of a command: `--cwd` resolved, else the working directory. */
export function projectDirOf(options: SettingsCommandOptions): string {
  return resolve(options.cwd ?? process.cwd());
}

/** `--trust-project`, or `HOOKWIRE_TRUST_PROJECT=1` in the environment (CI, containers). */
export function trustsWholeProject(options: SettingsCommandOptions): boolean {
  return options.trustProject === true || process.env.HOOKWIRE_TRUST_PROJECT === '1';
}

/**
 * The trust of a command's project: what the trust record (`~/.hookwire/trusted-hooks.json`)
 * holds for its real path, or everything with `trustAll`. A `TrustStoreError` propagates.
 */
export function commandTrust(
  options: SettingsCommandOptions,
  trustAll = trustsWholeProject(options),
): Promise<HookTrust> {
  return projectTrust({ projectDir: projectDirOf(options), trustAll });
}

/**
 * Checks that the project directory exists and is a directory. hookwire never creates it: a
 * mistyped `--cwd` would otherwise run the agent in an empty place, with none of the project's
 * guards loaded. Throws a `CliError` naming the path.
 */
export async function assertProjectDir(options: SettingsCommandOptions): Promise<void> {
  const directory = projectDirOf(options);
  const flag = options.cwd === undefined ? 'the working directory' : `--cwd ${options.cwd}`;
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT'
        ? `${flag}: the directory ${directory} does not exist (hookwire does not create it): check the path, or create the project directory first.`
        : `${flag}: the directory ${directory} cannot be used (${code ?? String(error)}).`,
      { cause: error },
    );
  }
  if (!isDirectory)
    throw new CliError(`${flag}: ${directory} is not a directory: give the project directory.`);
}

/**
 * Loads every settings layer for the project plus the `--settings` files (relative to the
 * invocation's working directory), with the project's hooks trusted as `commandTrust` says,
 * after checking the project directory exists (see `assertProjectDir`). A `SettingsError`
 * (every issue) or a `TrustStoreError` propagates to the caller.
 */
export async function loadCommandSettings(
  options: SettingsCommandOptions,
  trustAll = trustsWholeProject(options),
): Promise<EffectiveSettings> {
  await assertProjectDir(options);
  return loadHookSettings({
    projectDir: projectDirOf(options),
    settingsFiles: options.settings ?? [],
    trust: await commandTrust(options, trustAll),
    ...(options.dialects === false ? { dialects: false } : {}),
    ...(options.pluginDir === undefined ? {} : { pluginDirs: options.pluginDir }),
  });
}

/**
 * Opens the hook session of a command (`run`, `hooks fire`): the same settings as
 * `loadCommandSettings` (the project directory checked first, see `assertProjectDir`), adapted
 * and composed by `openHookSession`. Close it when done.
 */
export async function openCommandHookSession(
  options: SettingsCommandOptions,
  session: Omit<HookSessionOptions, 'projectDir' | 'settingsFiles' | 'trust'> = {},
): Promise<HookSession> {
  await assertProjectDir(options);
  return openHookSession({
    ...session,
    projectDir: projectDirOf(options),
    settingsFiles: options.settings ?? [],
    trust: await commandTrust(options),
    ...(options.dialects === false ? { dialects: false } : {}),
    ...(options.pluginDir === undefined ? {} : { pluginDirs: options.pluginDir }),
  });
}

/**
 * Prints, once each, what could not be honoured in the other tools' settings files (a skipped
 * hook, an ignored field, a file that exists and is not read) on stderr.
 */
export function printSettingsWarnings(settings: EffectiveSettings): void {
  for (const warning of settings.warnings) process.stderr.write(`hookwire: warning: ${warning}\n`);
}

/** `text` as a shell word for a line a user copies: bare when it needs no quoting. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}

/**
 * The one line `run`, `hooks fire` and `mcp list` print on stderr when hooks, loosening
 * settings, the `systemPrompt` setting, MCP servers or (`run`) instruction files of the project
 * were skipped as not trusted, naming the command that trusts them; `undefined` when nothing was
 * skipped.
 */
export function untrustedNotice(
  settings: EffectiveSettings,
  options: SettingsCommandOptions,
  instructionFiles: readonly { readonly label: string; readonly trusted: boolean }[] = [],
  agentFiles: readonly { readonly label: string; readonly trusted: boolean }[] = [],
): string | undefined {
  const hooks = settings.untrustedHooks;
  const entries = settings.ignoredSettings.filter(
    (setting) => setting.setting !== 'systemPrompt',
  ).length;
  const systemPrompt = settings.ignoredSettings.length - entries;
  const servers = settings.ignoredMcpServers.length;
  const instructions = instructionFiles.filter((file) => !file.trusted);
  const agents = agentFiles.filter((file) => !file.trusted);
  const plugins = settings.untrustedPlugins;
  if (
    plugins.length === 0 &&
    hooks === 0 &&
    entries === 0 &&
    systemPrompt === 0 &&
    servers === 0 &&
    instructions.length === 0 &&
    agents.length === 0
  )
    return undefined;
  const parts: string[] = [];
  if (hooks > 0) parts.push(`${hooks} project hook${hooks === 1 ? '' : 's'}`);
  if (entries > 0) parts.push(`${entries} project permission setting${entries === 1 ? '' : 's'}`);
  if (systemPrompt > 0) parts.push("the project's systemPrompt setting");
  if (instructions.length > 0)
    parts.push(
      `the project's instruction file${instructions.length === 1 ? '' : 's'} ${instructions.map((file) => file.label).join(', ')} (not sent to the model)`,
    );
  if (agents.length > 0)
    parts.push(
      `the project's agent file${agents.length === 1 ? '' : 's'} ${agents.map((file) => file.label).join(', ')} (no agent type defined)`,
    );
  if (plugins.length > 0)
    parts.push(
      `${plugins.length === 1 ? 'the plugin' : 'the plugins'} ${plugins.map(({ plugin }) => plugin.name).join(', ')}`,
    );
  if (servers > 0)
    parts.push(
      `${servers} project MCP server${servers === 1 ? '' : 's'} (${settings.ignoredMcpServers.map((server) => server.name).join(', ')})`,
    );
  const cwd = options.cwd === undefined ? '' : ` --cwd ${shellWord(projectDirOf(options))}`;
  // Why a hook the user trusted stopped running: its script changed (one line each).
  const changed = settings.ignored.flatMap((ignored) =>
    ignored.kind === 'untrusted' && !ignored.reason.startsWith('defined inside the project')
      ? ignored.group.hooks.map(
          (hook) =>
            `\nhookwire: hook "${visibleText(hook.name)}" (${ignored.group.event}): ${visibleText(ignored.reason)}`,
        )
      : [],
  );
  return `hookwire: skipped ${parts.join(' and ')} as not trusted; review and trust them with: hookwire hooks trust${cwd}${changed.join('')}`;
}
