/**
 * `openMods`: the Claude Code mods of a hook session, loaded and composed. The hook session
 * (`../hook-session.ts`) calls it with the plugin directories discovery found, and seats the
 * two members it returns in its stack (see `mods-hooks.ts` for where and why).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModel } from '../../content/index.ts';
import type { AgentPermissions } from '../../hooks/permissions/index.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import { createCapabilityCore } from './mod-capabilities.ts';
import { loadMods, type ModPlugin, type ModsSettings } from './load-mods.ts';
import { ModsChain, type LoadedMod } from './mods-chain.ts';
import { createModsHooks, type ModsHooks } from './mods-hooks.ts';

export interface OpenModsOptions {
  readonly plugins: readonly ModPlugin[];
  readonly settings: ModsSettings;
  /** `--mods-partial`: refused mods are left out with a warning instead of stopping the run. */
  readonly partial?: boolean;
  readonly projectDir: string;
  readonly runner: CommandRunner;
  /** `HOOKWIRE_HOME` (the home directory the user's `.hookwire/` is in), for the plugins' stores. Default `process.env`. */
  readonly env?: { readonly HOOKWIRE_HOME?: string | undefined };
  /** The run's model, as the prompt hook kind gets it: `$.model.complete`, `$.session.model`. */
  readonly promptModel?: () => Promise<LanguageModel>;
  /** Resolves `PROVIDER:MODEL` for `$.model.complete`, as for a prompt hook's `model`. */
  readonly resolveModel?: (spec: string) => Promise<LanguageModel>;
  /** The settings' permission layer: `tool.check`'s core verdict (absent: every call is allowed). */
  readonly permissions?: AgentPermissions;
  /** A hook's own time per event (default 10 000 ms) and its `.catch`'s (default 1 000 ms). */
  readonly budgetMs?: number;
  readonly catchBudgetMs?: number;
}

export interface OpenedMods extends ModsHooks {
  readonly mods: readonly LoadedMod[];
  /** One line per mod left out (`partial`). */
  readonly warnings: readonly string[];
  /** Terminates every mod's worker. */
  close(): Promise<void>;
}

/** Loads the mods of `options.plugins`; `undefined` when none of them has `modules`. */
export async function openMods(options: OpenModsOptions): Promise<OpenedMods | undefined> {
  const loaded = await loadMods(options.plugins, {
    settings: options.settings,
    ...(options.partial === undefined ? {} : { partial: options.partial }),
    host: {
      onConsole: () => {
        // A mod's console output has no surface in a headless run (Claude Code logs it under --debug).
      },
    },
  });
  if (loaded.mods.length === 0 && loaded.warnings.length === 0) return undefined;
  const env = options.env ?? process.env;
  const capabilities = createCapabilityCore({
    projectDir: options.projectDir,
    runner: options.runner,
    ...(options.promptModel === undefined ? {} : { promptModel: options.promptModel }),
    ...(options.resolveModel === undefined ? {} : { resolveModel: options.resolveModel }),
    homeDir: join(
      env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME,
      '.hookwire',
    ),
  });
  const chain = new ModsChain(loaded.mods, capabilities, {
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
    ...(options.catchBudgetMs === undefined ? {} : { catchBudgetMs: options.catchBudgetMs }),
    warn: (text, scope) => {
      scope.context.report({ level: 'warning', text });
    },
  });
  const hooks = createModsHooks(chain, {
    projectDir: options.projectDir,
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  return {
    ...hooks,
    mods: loaded.mods,
    warnings: loaded.warnings,
    async close() {
      hooks.release();
      await Promise.all(loaded.mods.map((mod) => mod.host.close()));
    },
  };
}
