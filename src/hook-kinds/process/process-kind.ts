/**
 * The `process` hook kind: one long-lived process per hook definition answering each event as a
 * JSON-RPC 2.0 request over stdio, one message per line (see `process-hook-runner.ts` for the
 * lifecycle and `docs/process-hooks.md` for the protocol). Its processes belong to the hook
 * session: `open` creates the runner when the settings have process hooks (the runner's code
 * loads only then) and a lifecycle hook that starts `"start": "session"` processes at
 * SessionStart and stops every process after SessionEnd; closing the session kills them all.
 */
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import type { HookConfigBase, HookKind } from '../hook-kind.ts';
import { commonConfigFields, failureAnswer } from '../hook-kind.ts';
import { interpretExecution } from '../hook-run.ts';
import { commonHookFields } from '../common-hook-fields.ts';
import { defaultHookName } from '../default-hook-name.ts';
import { changedScriptExecution } from '../settings/named-files.ts';
import type { ProcessHookRunner } from './process-hook-runner.ts';

/**
 * One `type: "process"` hook: a long-lived process (`command`, run by `/bin/sh -c` in the
 * project directory, in its own process group) answering JSON-RPC 2.0 requests. `timeoutMs` is
 * the deadline of each request.
 */
export interface ProcessHookConfig extends HookConfigBase {
  readonly type: 'process';
  readonly command: string;
  /** `first-use` (default): started by the first event it answers; `session`: at SessionStart. */
  readonly start: 'first-use' | 'session';
}

/** One long-lived hook process answering JSON-RPC 2.0 requests, one JSON message per line. */
export const processHookSchema = lazy(() =>
  z
    .strictObject({
      type: z.literal('process').meta({
        description:
          'A long-lived process answering every event as a JSON-RPC 2.0 request on stdin ({"jsonrpc":"2.0","id":N,"method":"hook","params":PAYLOAD}, one per line) with one response line on stdout whose "result" is what a command hook may print.',
      }),
      command: z.string().regex(/\S/).meta({
        description:
          'The shell command that starts the process (run by /bin/sh -c in the project).',
      }),
      start: z.enum(['first-use', 'session']).optional().meta({
        description:
          '"first-use" (default): started by the first event it answers. "session": started at SessionStart, before it is needed.',
      }),
      ...commonHookFields('the command (first 40 characters)'),
    })
    .meta({
      id: 'SettingsProcessHook',
      description:
        'A process hook: one process per hook definition serves every event (timeout is the deadline of each request; a process that dies, hangs or writes garbage is restarted with backoff).',
    }),
);

export const processKind: HookKind<ProcessHookConfig, ProcessHookRunner> = {
  type: 'process',
  // Built on first read: a run that validates no settings file builds no schema.
  get schema() {
    return processHookSchema();
  },
  parse(entry, common) {
    const command = typeof entry['command'] === 'string' ? entry['command'] : '';
    return {
      type: 'process',
      name: common.name ?? defaultHookName(command),
      command,
      start: entry['start'] === 'session' ? 'session' : 'first-use',
      ...commonConfigFields(common),
    };
  },
  target: (hook) => hook.command,
  async open(configs, host) {
    const { createProcessHookRunner, processHookLifecycle } = await import('./index.ts');
    const processes = createProcessHookRunner();
    const sessionHooks = configs.filter((hook) => hook.start === 'session');
    return {
      state: processes,
      hooks: [processHookLifecycle(processes, sessionHooks, { projectDir: host.projectDir })],
      close: () => processes.close(),
    };
  },
  async run(hook, request) {
    // Checked at once when a stat vouches for the script: the request leaves without an await.
    const checked = changedScriptExecution(hook.namedFiles, request.projectDir);
    const refused = checked instanceof Promise ? await checked : checked;
    const processes = request.kinds?.get(processKind);
    const execution =
      refused ??
      (processes === undefined
        ? {
            answer: failureAnswer(
              'error',
              'could not run: no hook session keeps process hooks here (open the hooks with openHookSession)',
            ),
            durationMs: 0,
          }
        : await processes.run(hook, request));
    return interpretExecution(request, hook, hook.command, execution);
  },
};
