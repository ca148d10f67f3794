import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTempWorkspace,
  type TempWorkspace,
} from '../../../test/fixtures/tools/temp-workspace.ts';
import { createCommandRunner, type CommandRunner } from '../../supervision/index.ts';
import { ToolRegistry } from '../../loop/tool-registry.ts';
import { shellTool, type ShellToolOptions, type ShellToolResult } from './shell-tool.ts';
import { ToolError } from './tool-error.ts';

let workspace: TempWorkspace;
beforeEach(async () => {
  workspace = await createTempWorkspace();
});
afterEach(async () => {
  await workspace.remove();
});

// The shell tool runs the same through its own default runner or a shared one.
const helperRunner = createCommandRunner({ mode: 'helper' });
afterAll(async () => {
  await helperRunner.close();
});
const runners: [string, CommandRunner | undefined][] = [
  ['its default runner', undefined],
  ['a shared helper runner', helperRunner],
];
let runner: CommandRunner | undefined;
function makeTool(options: ShellToolOptions = {}) {
  return shellTool(runner === undefined ? options : { ...options, runner });
}

async function run(args: unknown, tool = makeTool()): Promise<ShellToolResult> {
  return (await tool.execute(args, workspace.context)) as ShellToolResult;
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error: unknown = await promise.then(
    () => expect.fail('expected the command to fail'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

/**
 * True while `processId` is a live process. `process.kill(pid, 0)` also succeeds for a zombie
 * (exited, not yet reaped by an init that reaps lazily), which is not running, so on Linux a `Z`
 * state in /proc counts as gone.
 */
async function isRunning(processId: number): Promise<boolean> {
  try {
    process.kill(processId, 0);
  } catch {
    return false;
  }
  const status = await readFile(`/proc/${processId}/stat`, 'utf8').catch(() => '');
  const state = status.slice(status.lastIndexOf(')') + 2, status.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z';
}

/** The pid a command wrote to `name`, once the file is complete (a trailing newline). */
async function pidFrom(name: string): Promise<number> {
  const text = await vi.waitFor(
    async () => {
      const content = await readFile(workspace.path(name), 'utf8');
      if (!content.endsWith('\n')) throw new Error('pid file not written yet');
      return content;
    },
    { timeout: 10_000, interval: 10 },
  );
  return Number(text.trim());
}

describe.each(runners)('shell through %s', (_name, selected) => {
  beforeEach(() => {
    runner = selected;
  });

  it('returns exit code, stdout and stderr of a command run in cwd', async () => {
    await workspace.write({ 'hello.txt': 'hi from a file\n' });
    const result = await run({ command: 'cat hello.txt; pwd; echo oops >&2' });
    expect(result).toEqual({
      exitCode: 0,
      stdout: `hi from a file\n${workspace.root}\n`,
      stderr: 'oops\n',
    });
  });

  it('returns a non-zero exit code instead of failing', async () => {
    await expect(run({ command: 'echo partial; exit 3' })).resolves.toEqual({
      exitCode: 3,
      stdout: 'partial\n',
      stderr: '',
    });
  });

  it('reports a command that does not exist as exit code 127', async () => {
    const result = await run({ command: 'definitely-not-a-command-hookwire' });
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toContain('not found');
  });

  it('gives the command an empty stdin', async () => {
    const result = await run({ command: 'wc -c' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('0');
  });

  it('reports a shell killed by a signal it sent itself', async () => {
    await expect(run({ command: 'kill -SEGV $$' })).resolves.toEqual({
      exitCode: null,
      signal: 'SIGSEGV',
      stdout: '',
      stderr: '',
    });
  });

  it('caps stdout and stderr and notes which was cut', async () => {
    const tool = makeTool({ maxOutputBytes: 10 });
    const result = await run({ command: 'printf "0123456789abcdef"; printf "short" >&2' }, tool);
    expect(result).toEqual({
      exitCode: 0,
      stdout: '0123456789',
      stderr: 'short',
      truncated: 'stdout cut after the first 10 bytes',
    });
    const both = await run(
      { command: 'printf "0123456789abcdef"; printf "0123456789abcdef" >&2' },
      tool,
    );
    expect(both.truncated).toBe('stdout and stderr cut after the first 10 bytes');
  });

  it('kills the command and everything it started at the deadline, and fails', async () => {
    const tool = makeTool({ killGraceMs: 200 });
    const error = await failure(
      run({ command: 'echo started; sleep 30 & echo $! > grandchild.pid; wait', timeout: 1 }, tool),
    );
    expect(error.code).toBe('shell_timeout');
    expect(error.message).toMatch(
      /^The command timed out after 1 s and was killed with everything it started\./,
    );
    expect(error.message).toContain('stdout before it stopped:\nstarted\n');
    const grandchild = await pidFrom('grandchild.pid');
    await vi.waitFor(
      async () => {
        expect(await isRunning(grandchild)).toBe(false);
      },
      { timeout: 5_000, interval: 20 },
    );
  });

  it('kills the command and everything it started when the run is cancelled, and fails', async () => {
    const tool = makeTool({ killGraceMs: 200 });
    const running = run({ command: 'sleep 30 & echo $! > grandchild.pid; wait' }, tool);
    const grandchild = await pidFrom('grandchild.pid');
    expect(await isRunning(grandchild)).toBe(true);
    workspace.abort();
    const error = await failure(running);
    expect(error.code).toBe('shell_aborted');
    await vi.waitFor(
      async () => {
        expect(await isRunning(grandchild)).toBe(false);
      },
      { timeout: 5_000, interval: 20 },
    );
  });

  it('kills a process that left the group with setsid and ignores SIGTERM at the deadline', async () => {
    const tool = makeTool({ killGraceMs: 200 });
    const error = await failure(
      run(
        {
          command:
            'setsid sh -c \'trap "" TERM; echo $$ > escapee.pid; while :; do sleep 1; done\' & wait',
          timeout: 1,
        },
        tool,
      ),
    );
    expect(error.code).toBe('shell_timeout');
    const escapee = await pidFrom('escapee.pid');
    await vi.waitFor(
      async () => {
        expect(await isRunning(escapee)).toBe(false);
      },
      { timeout: 3_000, interval: 20 },
    );
  });

  it('escalates to SIGKILL for a command that ignores SIGTERM', async () => {
    const tool = makeTool({ killGraceMs: 100 });
    const error = await failure(
      run(
        {
          command:
            "trap '' TERM; sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; while :; do :; done'",
          timeout: 1,
        },
        tool,
      ),
    );
    expect(error.code).toBe('shell_timeout');
    const stubborn = await pidFrom('stubborn.pid');
    await vi.waitFor(
      async () => {
        expect(await isRunning(stubborn)).toBe(false);
      },
      { timeout: 5_000, interval: 20 },
    );
  });

  it('fails when the working directory does not exist', async () => {
    const error = await failure(
      makeTool().execute(
        { command: 'true' },
        { ...workspace.context, cwd: workspace.path('missing') },
      ),
    );
    expect(error.code).toBe('shell_spawn_failed');
    expect(error.message).toMatch(/^The command could not be started: /);
  });

  it('adds the configured environment', async () => {
    const result = await run(
      { command: 'printf "%s" "$HOOKWIRE_TEST_VALUE"' },
      makeTool({ env: { HOOKWIRE_TEST_VALUE: 'set' } }),
    );
    expect(result.stdout).toBe('set');
  });
});

describe('shell declaration', () => {
  it('declares a timeout between 0 and 600 seconds', () => {
    const registry = new ToolRegistry([shellTool()]);
    expect(registry.validate('shell', { command: 'ls', timeout: 600 })).toEqual({ ok: true });
    expect(registry.validate('shell', { command: 'ls', timeout: 601 })).toEqual({
      ok: false,
      errors: '/timeout must be <= 600',
    });
    expect(registry.validate('shell', { command: 'ls', timeout: 0 })).toEqual({
      ok: false,
      errors: '/timeout must be > 0',
    });
    expect(registry.validate('shell', { timeout: 5 })).toEqual({
      ok: false,
      errors: "/ must have required property 'command'",
    });
  });
});
