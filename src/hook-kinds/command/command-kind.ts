/**
 * The `command` hook kind: a shell command run in its own process group with the event's payload
 * as JSON on stdin, answering by exit status and stdout (see `hook-run.ts`).
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import type { HookKind } from '../hook-kind.ts';
import { defaultHookName } from '../default-hook-name.ts';
import type { CommandHookConfig } from './command-config.ts';
import { timeoutSchema } from '../timeout-schema.ts';
import type { HookRunRequest } from '../hook-kind.ts';
import { interpretRun } from './command-answer.ts';
import { confineCommand, credentialVariables } from '../../supervision/process-confinement.ts';
import { interpretExecution } from '../hook-run.ts';
import { changedScriptExecution } from '../settings/named-files.ts';

/** The command the runner starts for `hook`: confined as its `environment` and `sandbox` ask. */
function confineHookCommand(hook: CommandHookConfig, request: HookRunRequest): string {
  const confinement = request.confinement ?? {};
  const given = new Set(Object.keys(request.env));
  const unsetEnv =
    hook.environment === 'scrubbed'
      ? credentialVariables(process.env, confinement.passEnvironment).filter(
          (name) => !given.has(name),
        )
      : [];
  return confineCommand(
    request.dialectRules?.commandLine(hook.command) ?? hook.command,
    request.projectDir,
    {
      unsetEnv,
      ...(hook.sandbox === true
        ? {
            sandbox: {
              writableDirectories: [request.projectDir, ...(confinement.writableDirectories ?? [])],
              ...(confinement.readOnlyFiles === undefined
                ? {}
                : { readOnlyFiles: confinement.readOnlyFiles }),
              network: confinement.sandboxNetwork === true,
            },
          }
        : {}),
    },
  );
}

/** One external hook: a shell command run with the event's payload on stdin. */
export const commandHookSchema = lazy(() =>
  z
    .strictObject({
      type: z
        .literal('command')
        .meta({ description: 'The kind of hook. Only "command" is supported.' }),
      command: z.string().regex(/\S/).meta({
        description: 'The shell command to run. Receives the event payload as JSON on stdin.',
      }),
      timeout: timeoutSchema().optional(),
      if: z.string().optional().meta({
        description:
          'Tool events only: a permission rule ("shell(rm *)", "write_file(src/**)", "read_file(.env)"); the hook runs only for the calls it covers (as Claude Code\'s "if").',
      }),
      name: z.string().regex(/\S/).optional().meta({
        description:
          'A name shown in listings and logs. Defaults to the command (first 40 characters).',
      }),
      description: z.string().optional().meta({ description: "A note on the hook's purpose." }),
      failClosed: z.boolean().optional().meta({
        description:
          'true for a guard: if the hook crashes, times out or answers badly, the guarded action is denied. Default false (fail open with a warning).',
      }),
      environment: z.enum(['inherit', 'scrubbed']).optional().meta({
        description:
          'The environment the hook process gets. "inherit" (default): hookwire\'s own, as a trusted program of yours. "scrubbed": without credentials (variables named like *_API_KEY, *_TOKEN, *_SECRET*, *PASSWORD*, *_PWD, *PRIVATE_KEY*, *_PAT, *_KEY, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, and URLs carrying a password such as DATABASE_URL=postgres://u:p@h/db), as the model\'s shell tool gets it; passEnvironment names the ones to keep.',
      }),
      cwd: z.string().regex(/\S/).optional().meta({
        description:
          'The directory the hook runs in: relative to the project directory, or absolute. Default: the project directory. ("hookwire hooks import" writes it for Copilot CLI\'s "cwd", Windsurf\'s "working_directory" and Cursor\'s user-level hooks, which run from ~/.cursor.)',
      }),
      sandbox: z.boolean().optional().meta({
        description:
          'true: run the hook under bubblewrap (bwrap) like the shell tool under --sandbox: the project and added directories writable, the rest read-only, a private /tmp, no network unless --sandbox-network. Default false.',
      }),
    })
    .meta({ id: 'SettingsCommandHook', description: 'A command hook.' }),
);

export const commandKind: HookKind<CommandHookConfig> = {
  type: 'command',
  // Built on first read: a run that validates no settings file builds no schema.
  get schema() {
    return commandHookSchema();
  },
  parse(entry, common) {
    const command = typeof entry['command'] === 'string' ? entry['command'] : '';
    return {
      type: 'command',
      name: common.name ?? defaultHookName(command),
      command,
      ...(common.description === undefined ? {} : { description: common.description }),
      timeoutMs: common.timeoutMs,
      failClosed: common.failClosed,
      ...(entry['environment'] === 'scrubbed' ? { environment: 'scrubbed' as const } : {}),
      ...(entry['sandbox'] === true ? { sandbox: true as const } : {}),
      ...(typeof entry['cwd'] === 'string' ? { cwd: entry['cwd'] } : {}),
      layer: common.layer,
      file: common.file,
      path: common.path,
      alsoDefinedIn: [],
    };
  },
  target: (hook) => hook.command,
  async run(hook, request) {
    const checked = changedScriptExecution(hook.namedFiles, request.projectDir);
    const refused = checked instanceof Promise ? await checked : checked;
    if (refused !== undefined) return interpretExecution(request, hook, hook.command, refused);
    // `exec` + `args` (Copilot CLI) start the program with no shell; a hook that asks to be
    // confined runs its quoted command line through the confinement instead.
    const program =
      hook.argv !== undefined &&
      hook.argv[0] !== undefined &&
      hook.environment === undefined &&
      hook.sandbox === undefined
        ? { file: hook.argv[0], args: hook.argv.slice(1) }
        : { command: confineHookCommand(hook, request) };
    const result = await request.runner.run({
      ...program,
      cwd: hook.cwd === undefined ? request.projectDir : resolve(request.projectDir, hook.cwd),
      input: request.inputBytes ?? request.input,
      // Gemini CLI's per-hook `env` adds to (never overrides) hookwire's own variables.
      env: hook.env === undefined ? request.env : { ...hook.env, ...request.env },
      timeoutMs: hook.timeoutMs,
      ...(request.killGraceMs === undefined ? {} : { killGraceMs: request.killGraceMs }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    return interpretRun(request.event, request.registeredAs, hook, result, request.dialectRules);
  },
};
