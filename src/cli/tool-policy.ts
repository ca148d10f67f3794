import { resolve } from 'node:path';
import { checkBwrap } from '../supervision/process-confinement.ts';
import type { HookProcessOptions } from '../hook-kinds/group/run-hook-group.ts';
import type { EffectiveSettings } from '../hook-kinds/settings/index.ts';
import { settingsPermissions } from '../host/hook-session.ts';
import {
  BUILTIN_TOOL_KINDS,
  startShellAnalysis,
  withheldFiles,
  type PermissionMode,
} from '../hooks/permissions/index.ts';
import type { AgentPermissions } from '../loop/index.ts';
import { CliError } from './cli-error.ts';

/** The options of `run` that confine the model's tools. */
export interface ToolPolicyOptions {
  readonly permissionMode?: PermissionMode;
  readonly addDir?: readonly string[];
  readonly sandbox?: boolean;
  readonly sandboxNetwork?: boolean;
}

/**
 * The directories the file tools (and a sandboxed shell) may use besides the project: `--add-dir`
 * (relative to the working directory) and `permissions.additionalDirectories` (relative to the
 * project directory).
 */
export function addedDirectories(
  options: ToolPolicyOptions,
  settings: EffectiveSettings,
  projectDir: string,
): string[] {
  return [
    ...(options.addDir ?? []).map((directory) => resolve(directory)),
    ...settings.permissions.additionalDirectories.map((entry) => resolve(projectDir, entry.value)),
  ];
}

/**
 * The permission layer of a run: on when a settings file has `permissions` or a mode is given
 * (`--permission-mode`, `permissions.defaultMode`); off otherwise, and every call runs as
 * before rules existed.
 */
export function agentPermissions(
  options: ToolPolicyOptions,
  settings: EffectiveSettings,
): AgentPermissions | undefined {
  return settingsPermissions(settings, options.permissionMode);
}

/** How hooks that ask for it are confined in this run. */
export function hookProcessOptions(
  options: ToolPolicyOptions,
  settings: EffectiveSettings,
  projectDir: string,
): HookProcessOptions {
  return {
    passEnvironment: settings.passEnvironment,
    sandboxNetwork: options.sandboxNetwork === true,
    writableDirectories: addedDirectories(options, settings, projectDir),
    readOnlyFiles: hookScriptFiles(settings, projectDir),
  };
}

/**
 * The files inside the project that the hooks which run execute (their `namedFiles` that exist),
 * as absolute paths: a sandbox mounts them read-only, so the model's shell cannot rewrite a
 * trusted hook's script.
 */
export function hookScriptFiles(settings: EffectiveSettings, projectDir: string): string[] {
  const files = new Set<string>();
  for (const groups of Object.values(settings.events))
    for (const group of groups)
      for (const hook of group.hooks)
        for (const [path, state] of Object.entries(hook.namedFiles ?? {}))
          if (state !== 'absent') files.add(resolve(projectDir, path));
  return [...files].sort();
}

/** `--sandbox` fails at once when bubblewrap is missing or cannot run here. */
export async function requireSandbox(reason: string): Promise<void> {
  try {
    await checkBwrap();
  } catch (error) {
    throw new CliError(
      `${reason}: ${error instanceof Error ? error.message.replace(/^--sandbox:?\s*/, '') : String(error)}`,
    );
  }
}

/** Whether any hook that runs asks for the sandbox (`"sandbox": true`). */
export function hooksNeedSandbox(settings: EffectiveSettings): boolean {
  return Object.values(settings.events).some((groups) =>
    groups.some((group) =>
      group.hooks.some((hook) => hook.type === 'command' && hook.sandbox === true),
    ),
  );
}

/**
 * The `grep` and `glob` options that leave out the files a deny or ask read rule covers
 * (`read_file(.env)`): a search of a directory never returns what reading the file would not.
 */
export function withheldByRules(permissions: AgentPermissions | undefined): {
  grep?: { withheld: (path: string, cwd: string) => boolean };
  glob?: { withheld: (path: string, cwd: string) => boolean };
} {
  const grep = withheldFiles(permissions, 'grep');
  const glob = withheldFiles(permissions, 'glob');
  return {
    ...(grep === undefined ? {} : { grep: { withheld: grep } }),
    ...(glob === undefined ? {} : { glob: { withheld: glob } }),
  };
}

/**
 * Starts the shell analysis's helper at the start of a run whose permission rules will need it
 * (a command rule on the shell tool, or `acceptEdits`), so it loads while the run starts.
 */
export function prepareShellRules(
  permissions: AgentPermissions | undefined,
  settings: EffectiveSettings,
): void {
  const hooksUseIf = Object.values(settings.events).some((groups) =>
    groups.some((group) => group.hooks.some((hook) => 'if' in hook)),
  );
  const rules =
    permissions === undefined
      ? []
      : [...permissions.rules.deny, ...permissions.rules.ask, ...permissions.rules.allow];
  if (
    hooksUseIf ||
    permissions?.mode === 'acceptEdits' ||
    rules.some((rule) => rule.specifier !== undefined && BUILTIN_TOOL_KINDS.shell.has(rule.tool))
  )
    startShellAnalysis();
}
