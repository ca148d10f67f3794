/**
 * The `module` hook kind: `{ "type": "module", "path": "./hooks/guard.ts" }` loads a file whose
 * default export is an `AgentHook` (`.ts` through Node's type stripping, `.js`, `.mjs`) and runs
 * it in the engine's own process: a hook that cost a process start per event costs a function
 * call.
 *
 * - The path is relative to the project directory, or absolute.
 * - Trust covers the file's content: settings loading records the file's hash in `namedFiles`
 *   (as it does for the scripts command hooks run), so a trusted module that changes is a
 *   different hook; a module that changed since it was loaded does not run (a failure).
 * - The file is imported with its content hash in the URL (`?sha256=…`), so a new version
 *   loads when the content changes and an unchanged file is imported once per process.
 * - The payload becomes the event's in-process event (`external.fromPayload`), the module's
 *   method for it answers an action, and the action becomes hookwire's JSON answer, interpreted
 *   as every kind's answer is (`interpretExecution`): a module that throws, answers something
 *   that is not an action of the event, or outlives its `timeout` is a failed hook (a warning,
 *   or a denial when it fails closed).
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import type { HookConfigBase, HookKind } from '../hook-kind.ts';
import { commonHookFields } from '../common-hook-fields.ts';
import { interpretExecution } from '../hook-run.ts';
import { commonConfigFields } from '../hook-kind.ts';
import {
  changedScriptExecution,
  namedFileStateNow,
  trustedStateOf,
} from '../settings/named-files.ts';
import { runModuleHook } from './run-module-hook.ts';

/** One `type: "module"` hook: a file whose default export is an `AgentHook`. */
export interface ModuleHookConfig extends HookConfigBase {
  readonly type: 'module';
  /**
   * The file, as the settings' `path` gives it (relative to the project directory, or absolute);
   * `path` itself is the entry's JSON path, as for every kind.
   */
  readonly modulePath: string;
}

/** One module hook. */
export const moduleHookSchema = lazy(() =>
  z
    .strictObject({
      type: z.literal('module').meta({
        description:
          "A file whose default export is an AgentHook, run in hookwire's own process (.ts through Node's type stripping, .js, .mjs).",
      }),
      path: z.string().regex(/\S/).meta({
        description:
          'The file: relative to the project directory, or absolute. Trusted by the hash of its content; reloaded when it changes.',
      }),
      ...commonHookFields('the path'),
    })
    .meta({ id: 'SettingsModuleHook', description: 'A module hook.' }),
);

export const moduleKind: HookKind<ModuleHookConfig> = {
  type: 'module',
  // Built on first read: a run that validates no settings file builds no schema.
  get schema() {
    return moduleHookSchema();
  },
  parse(entry, common) {
    const modulePath = typeof entry['path'] === 'string' ? entry['path'] : '';
    return {
      type: 'module',
      name: common.name ?? modulePath,
      modulePath,
      ...commonConfigFields(common),
    };
  },
  target: (hook) => hook.modulePath,
  async run(hook, request) {
    const checked = changedScriptExecution(hook.namedFiles, request.projectDir);
    const refused = checked instanceof Promise ? await checked : checked;
    if (refused !== undefined) return interpretExecution(request, hook, hook.modulePath, refused);
    // The file's state as the check just found it (a project module's trusted state), else as a
    // stat vouches for it now: the module is not read and hashed again on every run.
    const file = resolve(request.projectDir, hook.modulePath);
    const known =
      trustedStateOf(hook.namedFiles, request.projectDir, file) ?? namedFileStateNow(file);
    const state = known instanceof Promise ? await known : known;
    const ran = runModuleHook(hook, request, state);
    const execution = ran instanceof Promise ? await ran : ran;
    return interpretExecution(request, hook, hook.modulePath, execution);
  },
};
