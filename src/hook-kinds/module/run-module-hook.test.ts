/**
 * A module hook's run (issue 29): a loaded module whose method answers at once runs without a
 * promise, a timer or a JSON round trip; a module still loading and a method that answers with a
 * promise stay under the hook's deadline and the run's cancellation, which abort its signal.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferredRunner } from '../../supervision/deferred-runner.ts';
import type { HookExecution, HookRunRequest } from '../hook-kind.ts';
import type { ModuleHookConfig } from './module-kind.ts';
import { runModuleHook } from './run-module-hook.ts';

let project: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'hookwire-module-run-'));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

const runner = deferredRunner(() => Promise.reject(new Error('a module hook starts no process')));

function hookOf(file: string, timeoutMs = 10_000): ModuleHookConfig {
  return {
    type: 'module',
    name: file,
    modulePath: file,
    timeoutMs,
    failClosed: false,
    layer: 'project',
    file: join(project, 'settings.json'),
    path: 'hooks.PreToolUse[0].hooks[0]',
    alsoDefinedIn: [],
  };
}

function requestFor(path: string, signal?: AbortSignal): HookRunRequest {
  const payload = {
    session_id: 'session-1',
    transcript_path: '',
    cwd: project,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-12-02T10:00:00.000Z',
    tool_name: 'read_file',
    tool_input: { path },
    tool_call_id: 'call_1',
  };
  return {
    event: 'PreToolUse',
    registeredAs: 'PreToolUse',
    input: JSON.stringify(payload),
    payload,
    projectDir: project,
    env: {},
    runner,
    ...(signal === undefined ? {} : { signal }),
  };
}

const GUARD = `export default {
  onToolCall(context, call) {
    return call.args.path === 'secret.txt' ? { kind: 'skip', reason: 'not that one' } : { kind: 'run' };
  },
};
`;

/** Awaits an execution that may come without a promise. */
async function settled(ran: HookExecution | Promise<HookExecution>): Promise<HookExecution> {
  return ran;
}

/**
 * Writes module `name`: it answers `run` for the path `load` (so a first run loads it), and
 * otherwise never answers, writing `marker` (returned) when its signal aborts.
 */
async function writeWaitingModule(name: string, marker: string): Promise<string> {
  const path = join(project, marker);
  await writeFile(
    join(project, name),
    `import { writeFileSync } from 'node:fs';
export default {
  onToolCall(context, call) {
    if (call.args.path === 'load') return { kind: 'run' };
    context.signal.addEventListener('abort', () => writeFileSync(${JSON.stringify(path)}, 'aborted'));
    return new Promise(() => {});
  },
};
`,
  );
  return path;
}

describe('runModuleHook', () => {
  it('loads a module under its deadline, then answers later runs at once from the same load', async () => {
    await writeFile(join(project, 'guard.mjs'), GUARD);
    const hook = hookOf('guard.mjs');
    const first = runModuleHook(hook, requestFor('secret.txt'));
    expect(first).toBeInstanceOf(Promise);
    expect((await settled(first)).answer).toEqual({
      kind: 'json',
      value: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'not that one',
        },
      },
    });
    const later = runModuleHook(hook, requestFor('a.txt'));
    expect(later).not.toBeInstanceOf(Promise);
    expect((await settled(later)).answer).toEqual({ kind: 'json', value: null });
    const denied = runModuleHook(hook, requestFor('secret.txt'));
    expect(denied).not.toBeInstanceOf(Promise);
    expect((await settled(denied)).answer.kind).toBe('json');
  });

  it('a method answering with a promise that outlives the deadline is a timeout, and its signal aborts', async () => {
    const marker = await writeWaitingModule('slow.mjs', 'aborted');
    const hook = hookOf('slow.mjs', 50);
    // Loaded by a first run, so the second takes the loaded module's path.
    expect((await settled(runModuleHook(hook, requestFor('load')))).answer.kind).toBe('json');
    const second = runModuleHook(hook, requestFor('a.txt'));
    expect(second).toBeInstanceOf(Promise);
    expect((await settled(second)).answer).toEqual({
      kind: 'failure',
      status: 'timeout',
      what: 'timed out after 50ms',
    });
    expect(existsSync(marker)).toBe(true);
  });

  it("the run's cancellation ends a pending method and aborts its signal", async () => {
    const marker = await writeWaitingModule('waits.mjs', 'cancelled');
    const hook = hookOf('waits.mjs');
    expect((await settled(runModuleHook(hook, requestFor('load')))).answer.kind).toBe('json');
    const controller = new AbortController();
    const pending = runModuleHook(hook, requestFor('a.txt', controller.signal));
    expect(pending).toBeInstanceOf(Promise);
    expect(existsSync(marker)).toBe(false);
    controller.abort();
    expect((await settled(pending)).answer).toEqual({
      kind: 'failure',
      status: 'error',
      what: 'was cancelled',
    });
    expect(existsSync(marker)).toBe(true);
  });
});
