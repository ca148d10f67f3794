/**
 * Loading Claude Code mods from plugin directories: the plugins whose `hooks/hooks.json` has
 * `modules`. For each: the static scan (refusal at load, naming every missing event and
 * capability), the options (`plugin.json` `userConfig` defaults overridden by
 * `pluginConfigs["<name>"].options`, or `"<name>@inline"` for a `--plugin-dir` plugin), the
 * tier (`prependPlugins` / `appendPlugins` of the managed settings, else `user`), then a worker
 * that imports the modules and registers their hooks.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HookwireError } from '../../content/hookwire-error.ts';
import { ModWorkerHost, type ModWorkerHostOptions } from './mod-worker-host.ts';
import type { LoadedMod, ModTier } from './mods-chain.ts';
import { resolveModImport } from './resolve-import.ts';
import { refusalOf, scanMod } from './scan-mod.ts';

/**
 * A plugin directory as discovery finds it (`PluginDirectory` of
 * `src/hook-kinds/plugins/plugin-directory.ts`): only the fields the mods loader reads.
 */
export interface ModPlugin {
  readonly name: string;
  /** The plugin directory, absolute. */
  readonly root: string;
  /** Given with `--plugin-dir` (its `pluginConfigs` key is `"<name>@inline"`). */
  readonly inline: boolean;
  /** `.claude-plugin/plugin.json` as parsed; absent: read from the directory. */
  readonly manifest?: unknown;
}

/** One `pluginConfigs` entry of hookwire's user or managed settings. */
export interface ModPluginConfig {
  /** Overrides the `userConfig` defaults of `plugin.json`. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Every failure of the plugin's hooks denies (throw, timeout, wrong shape, wedge). */
  readonly failClosed?: boolean;
}

/** What the settings say about mods. */
export interface ModsSettings {
  readonly pluginConfigs: Readonly<Record<string, ModPluginConfig>>;
  /** Managed settings only: plugins seated outermost, in this order. */
  readonly prependPlugins: readonly string[];
  /** Managed settings only: plugins seated innermost, in this order. */
  readonly appendPlugins: readonly string[];
}

export const NO_MODS_SETTINGS: ModsSettings = Object.freeze({
  pluginConfigs: {},
  prependPlugins: [],
  appendPlugins: [],
});

/** Mods refused at load: each line names a mod and everything it needs that hookwire lacks. */
export class ModsRefusedError extends HookwireError {
  readonly refusals: readonly string[];
  constructor(refusals: readonly string[]) {
    super(
      'mods_refused',
      `${refusals.length === 1 ? 'A mod is' : `${String(refusals.length)} mods are`} refused, so the run does not start:\n${refusals.map((line) => `  - ${line}`).join('\n')}\nRemove the plugin, or pass --mods-partial to load the other mods without it.`,
    );
    this.name = 'ModsRefusedError';
    this.refusals = refusals;
  }
}

export interface LoadModsOptions {
  readonly settings: ModsSettings;
  /** `--mods-partial`: load the mods that can load, a warning per refused one. */
  readonly partial?: boolean;
  readonly host?: ModWorkerHostOptions;
}

export interface LoadedMods {
  readonly mods: readonly LoadedMod[];
  /** One line per refused mod (with `partial`) and per ignored entry. */
  readonly warnings: readonly string[];
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HookwireError(
      'mods_invalid',
      `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** The modules `hooks/hooks.json` lists, absolute; empty when it lists none. */
export async function modulesOf(root: string): Promise<readonly string[]> {
  const file = join(root, 'hooks', 'hooks.json');
  const hooks = await readJson(file);
  if (!isRecord(hooks) || hooks.modules === undefined) return [];
  if (!Array.isArray(hooks.modules) || !hooks.modules.every((entry) => typeof entry === 'string'))
    throw new HookwireError(
      'mods_invalid',
      `${file}: "modules" must be an array of module paths relative to hooks/ (e.g. ["./register.ts"])`,
    );
  // An entry resolves as an import written in hooks/ does (`./register` finds `register.ts`).
  return hooks.modules.map(
    (entry: string) => resolveModImport(file, entry) ?? resolve(root, 'hooks', entry),
  );
}

/** `userConfig` defaults of the manifest, overridden by the plugin's `pluginConfigs` options. */
export function optionsOf(
  manifest: unknown,
  config: ModPluginConfig | undefined,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const userConfig = isRecord(manifest) ? manifest.userConfig : undefined;
  if (isRecord(userConfig))
    for (const [key, field] of Object.entries(userConfig))
      if (isRecord(field) && 'default' in field) options[key] = field.default;
  return { ...options, ...config?.options };
}

/** The `pluginConfigs` entry of a plugin: `"<name>@inline"` for a `--plugin-dir` one, else `"<name>"`. */
export function configOf(plugin: ModPlugin, settings: ModsSettings): ModPluginConfig | undefined {
  const keys = plugin.inline ? [`${plugin.name}@inline`, plugin.name] : [plugin.name];
  for (const key of keys) {
    const config = settings.pluginConfigs[key];
    if (config !== undefined) return config;
  }
  return undefined;
}

function tierOf(plugin: ModPlugin, settings: ModsSettings): { tier: ModTier; order: number } {
  const names = [plugin.name, `${plugin.name}@inline`];
  const prepend = settings.prependPlugins.findIndex((name) => names.includes(name));
  if (prepend !== -1) return { tier: 'prepend', order: prepend };
  const append = settings.appendPlugins.findIndex((name) => names.includes(name));
  if (append !== -1) return { tier: 'append', order: append };
  return { tier: 'user', order: 0 };
}

/**
 * Scans and loads the mods of `plugins` (in discovery order). Throws `ModsRefusedError` naming
 * every refused mod and what it needs, unless `partial`; a mod whose modules fail to load or
 * register is refused the same way.
 */
export async function loadMods(
  plugins: readonly ModPlugin[],
  options: LoadModsOptions,
): Promise<LoadedMods> {
  const warnings: string[] = [];
  const refusals: string[] = [];
  const candidates: { plugin: ModPlugin; modules: readonly string[]; manifest: unknown }[] = [];
  for (const plugin of plugins) {
    const modules = await modulesOf(plugin.root);
    if (modules.length === 0) continue;
    const manifest =
      plugin.manifest ?? (await readJson(join(plugin.root, '.claude-plugin', 'plugin.json')));
    const refusal = refusalOf(plugin.name, plugin.root, await scanMod(plugin.root, modules));
    if (refusal === undefined) candidates.push({ plugin, modules, manifest });
    else refusals.push(refusal);
  }
  const loaded: LoadedMod[] = [];
  const started = await Promise.all(
    candidates.map(async ({ plugin, modules, manifest }, position) => {
      const config = configOf(plugin, options.settings);
      const host = new ModWorkerHost(
        {
          name: plugin.name,
          root: plugin.root,
          modules,
          options: optionsOf(manifest, config),
        },
        options.host,
      );
      try {
        const registrations = await host.start();
        const { tier, order } = tierOf(plugin, options.settings);
        return {
          mod: {
            name: plugin.name,
            root: plugin.root,
            tier,
            order: tier === 'user' ? position : order,
            failClosed: config?.failClosed === true,
            host,
            registrations,
          } satisfies LoadedMod,
        };
      } catch (error) {
        await host.close();
        return {
          refusal: `mod ${plugin.name} (${plugin.root}) did not load: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }),
  );
  for (const outcome of started)
    if ('mod' in outcome) loaded.push(outcome.mod);
    else refusals.push(outcome.refusal);
  if (refusals.length > 0 && options.partial !== true) {
    await Promise.all(loaded.map((mod) => mod.host.close()));
    throw new ModsRefusedError(refusals);
  }
  for (const refusal of refusals) warnings.push(`${refusal}: not loaded (--mods-partial)`);
  return { mods: loaded, warnings };
}
