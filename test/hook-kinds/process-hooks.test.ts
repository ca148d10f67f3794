/**
 * `type: "process"` hooks against real Node processes (test/fixtures/process-hooks/modes.mjs):
 * one process serves many events, answers match by id, and a process that errs, crashes, writes
 * garbage or hangs fails its requests by the hook's rules and is replaced.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHookGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import {
  createProcessHookRunner,
  processHookLifecycle,
  type ProcessHookRunner,
} from '../../src/hook-kinds/process/index.ts';
import type { ProcessHookConfig } from '../../src/hook-kinds/process/index.ts';
import { groupOf, processHook, toolPayload, kindStates } from './support.ts';

const script = fileURLToPath(new URL('../fixtures/process-hooks/modes.mjs', import.meta.url));

let directory = '';
let log = '';
let processes: ProcessHookRunner;
const commands = createDirectRunner();

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'hookwire-process-hooks-'));
  log = join(directory, 'log.txt');
  processes = createProcessHookRunner({ backoff: { initialMs: 20, maxMs: 200 }, killGraceMs: 500 });
});

afterEach(async () => {
  await processes.close();
  await rm(directory, { recursive: true, force: true });
});

function hook(fields: Partial<ProcessHookConfig> = {}): ProcessHookConfig {
  return processHook(`HOOK_LOG=${JSON.stringify(log)} node ${JSON.stringify(script)}`, fields);
}

async function logLines(): Promise<string[]> {
  try {
    return (await readFile(log, 'utf8')).trim().split('\n');
  } catch {
    return [];
  }
}

function fire(config: ProcessHookConfig, mode: string, signal?: AbortSignal) {
  return runHookGroup(groupOf('PreToolUse', [config]), toolPayload(mode), {
    runner: commands,
    projectDir: directory,
    sessionId: 'session-1',
    kinds: kindStates({ process: processes }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** True while `pid` runs (a zombie awaiting a lazy init's reaping counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('process hooks', () => {
  it('answers many events from one process started on first use, reading results as hook output', async () => {
    const config = hook();
    expect(processes.running).toBe(0);
    const allowed = await fire(config, 'allow');
    const denied = await fire(config, 'deny');
    const context = await fire(config, 'context');
    expect(allowed.combined.denied).toBe(false);
    expect(allowed.outcomes[0]?.record.status).toBe('ok');
    expect(denied.combined.denyReasons).toEqual(['no: shell']);
    expect(denied.outcomes[0]?.record.status).toBe('blocked');
    expect(context.combined.systemMessages).toEqual(['ctx']);
    const lines = await logLines();
    expect(lines.filter((line) => line.startsWith('start '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('request '))).toEqual([
      'request 1 allow',
      'request 2 deny',
      'request 3 context',
    ]);
    expect(processes.running).toBe(1);
  });

  it('sends params exactly as the payload a command hook reads on stdin', async () => {
    const run = await fire(hook(), 'echo');
    expect(JSON.parse(run.combined.systemMessages[0] ?? '')).toEqual(toolPayload('echo'));
  });

  it('matches answers by id when several requests are in flight and answered out of order', async () => {
    const config = hook();
    const [slow, fast] = await Promise.all([fire(config, 'delay:150'), fire(config, 'delay:1')]);
    expect(slow.combined.systemMessages).toEqual(['answered 1']);
    expect(fast.combined.systemMessages).toEqual(['answered 2']);
    const lines = await logLines();
    expect(lines.filter((line) => line.startsWith('start '))).toHaveLength(1);
  });

  it('counts a JSON-RPC error as a failed hook: a warning, or a denial when failClosed', async () => {
    const open = await fire(hook(), 'error');
    expect(open.combined.denied).toBe(false);
    expect(open.combined.warnings[0]).toBe(
      'hook "proc" (PreToolUse) answered a JSON-RPC error -32000: policy engine down',
    );
    const closed = await fire(hook({ failClosed: true, name: 'guard' }), 'error');
    expect(closed.combined.denied).toBe(true);
    expect(closed.outcomes[0]?.record.status).toBe('failed-closed');
    expect(closed.combined.denyReasons[0]).toContain('marked failClosed');
    // An error answer leaves the process in service; both hooks share the definition (command).
    expect((await logLines()).filter((line) => line.startsWith('start '))).toHaveLength(1);
  });

  it('restarts a process that writes garbage, failing its request as a warning', async () => {
    const config = hook();
    await fire(config, 'allow');
    const garbage = await fire(config, 'garbage');
    expect(garbage.outcomes[0]?.record.status).toBe('warning');
    expect(garbage.combined.warnings[0]).toContain('is not a JSON-RPC 2.0 answer');
    expect(garbage.combined.warnings[0]).toContain('this is not json');
    const after = await fire(config, 'deny');
    expect(after.combined.denyReasons).toEqual(['no: shell']);
    const starts = (await logLines()).filter((line) => line.startsWith('start '));
    expect(starts).toHaveLength(2);
    const firstPid = Number(starts[0]?.split(' ')[1]);
    expect(isAlive(firstPid)).toBe(false);
  });

  it('fails every request in flight when the process dies, and a failClosed one denies', async () => {
    const guard = hook({ failClosed: true, name: 'guard' });
    const [pending, crash] = await Promise.all([fire(guard, 'hang'), fire(guard, 'crash')]);
    for (const run of [pending, crash]) {
      expect(run.outcomes[0]?.record.status).toBe('failed-closed');
      expect(run.combined.denyReasons[0]).toMatch(/exited \(code 3\) before it answered: boom/);
    }
    const again = await fire(guard, 'allow');
    expect(again.combined.denied).toBe(false);
  });

  it('times out a hung request at its deadline, kills the hung process and starts a new one', async () => {
    // One definition (the deadline is not part of it): a loaded machine may take longer than
    // 300 ms to start Node, so only the hung request gets the short deadline.
    const config = hook();
    await fire(config, 'allow');
    // The timeout status is the evidence the deadline fired (the hung request never answers);
    // no wall-clock bound, which a loaded machine can miss.
    const hung = await fire({ ...config, timeoutMs: 300 }, 'hang');
    expect(hung.outcomes[0]?.record.status).toBe('timeout');
    expect(hung.combined.warnings[0]).toBe('hook "proc" (PreToolUse) timed out after 300ms');
    const after = await fire(config, 'deny');
    expect(after.combined.denied).toBe(true);
    const starts = (await logLines()).filter((line) => line.startsWith('start '));
    expect(starts).toHaveLength(2);
    expect(isAlive(Number(starts[0]?.split(' ')[1]))).toBe(false);
  });

  it('cancels a request on abort, tells the process, and keeps it in service', async () => {
    const config = hook();
    const controller = new AbortController();
    const pending = fire(config, 'hang', controller.signal);
    // Wait until the process has the request (from its log), then cancel.
    for (let tries = 0; !(await logLines()).includes('request 1 hang'); tries++) {
      if (tries > 400) throw new Error('the process never received the request');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    const cancelled = await pending;
    expect(cancelled.combined.warnings[0]).toBe(
      'hook "proc" (PreToolUse) was cancelled before it answered',
    );
    const after = await fire(config, 'deny');
    expect(after.combined.denied).toBe(true);
    const lines = await logLines();
    expect(lines).toContain('notification $/cancelRequest {"id":1}');
    expect(lines.filter((line) => line.startsWith('start '))).toHaveLength(1);
  });

  it('stops the process and everything it started at session end', async () => {
    const config = hook();
    await fire(config, 'child');
    const lines = await logLines();
    const pid = Number(lines.find((line) => line.startsWith('start '))?.split(' ')[1]);
    const child = Number(lines.find((line) => line.startsWith('child '))?.split(' ')[1]);
    expect(isAlive(pid) && isAlive(child)).toBe(true);
    const lifecycle = processHookLifecycle(processes, []);
    await lifecycle.onSessionEnd?.(
      {} as Parameters<NonNullable<typeof lifecycle.onSessionEnd>>[0],
      { reason: 'exit' },
    );
    expect(processes.running).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(child)).toBe(false);
  });

  it('starts "start": "session" processes at SessionStart, before their first event', async () => {
    const config = hook({ start: 'session' });
    const lifecycle = processHookLifecycle(processes, [config], { projectDir: directory });
    await lifecycle.onSessionStart?.(
      { session: { sessionId: 'session-9', cwd: directory, transcriptPath: '' } } as Parameters<
        NonNullable<typeof lifecycle.onSessionStart>
      >[0],
      { source: 'startup' },
    );
    expect(processes.running).toBe(1);
    for (let tries = 0; (await logLines()).length === 0; tries++) {
      if (tries > 400) throw new Error('the process never started');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await logLines())[0]).toMatch(/^start \d+ session-9$/);
    await fire(config, 'allow');
    expect((await logLines()).filter((line) => line.startsWith('start '))).toHaveLength(1);
  });

  it('answers a failure for a command that cannot start, and for a closed runner', async () => {
    const missing = processHook('exec /nonexistent/hook-binary');
    const run = await fire(missing, 'allow');
    expect(run.outcomes[0]?.record.status).toBe('error');
    expect(run.combined.warnings[0]).toMatch(/exited \(code 127\) before it answered/);
    await processes.close();
    const closed = await fire(hook(), 'allow');
    expect(closed.combined.warnings[0]).toBe(
      'hook "proc" (PreToolUse) could not run: its runner was closed',
    );
  });
});
