/**
 * The contract every `CommandRunner` keeps, as one suite that each implementation's test file
 * runs with its own factory (like hono's router `runTest`). Real processes, real files; fixtures
 * say when they are ready by writing a file, and the tests wait on that file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRunner, RunCommandOptions } from './command-runner.ts';
import { CommandRunnerError } from './command-runner-error.ts';

/** Path of a fixture script in test/fixtures/hooks/. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../test/fixtures/hooks/${name}`, import.meta.url));
}

/** Resolves with the file's content once it exists (fixtures create it atomically by rename). */
export async function waitForFile(path: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await readFile(path, 'utf8');
    } catch {
      if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** The state letter of /proc/PID/stat, or undefined when the process no longer exists. */
async function processState(processId: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${processId}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** True while the process runs; a zombie (dead, awaiting a lazy reaper) counts as gone. */
export async function isRunning(processId: number): Promise<boolean> {
  const state = await processState(processId);
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** The pids of the running (non-zombie) processes whose process group is `groupId`. */
export async function runningMembersOf(groupId: number): Promise<number[]> {
  const members: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === groupId && fields[0] !== 'Z' && fields[0] !== 'X') {
        members.push(Number(entry));
      }
    } catch {
      // The process ended while we listed /proc.
    }
  }
  return members;
}

/**
 * Resolves once none of `processIds` runs. SIGKILL is asynchronous (kill(2) returns before the
 * target has died), so a killed process may take a moment to stop; a live one fails the test.
 */
export async function expectAllGone(
  processIds: readonly number[],
  timeoutMs = 2000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running: number[] = [];
    for (const processId of processIds) if (await isRunning(processId)) running.push(processId);
    if (running.length === 0) return;
    if (Date.now() > deadline) {
      expect.fail(`processes still running after the kill sequence: ${running.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function quote(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs the `CommandRunner` contract against runners made by `createRunner`. `mode`: how each run
 * is started. `shell` (default): `{ command }`. `argv`: `{ file: '/bin/sh', args: ['-c', command] }`,
 * so every case (containment, deadlines, floods, reaping) runs through argv mode, where the
 * runner starts the program itself with no shell of its own; argv mode's own cases (arguments
 * passed verbatim, no expansion, a missing program) are added.
 */
export function describeCommandRunnerContract(
  name: string,
  createRunner: () => CommandRunner,
  mode: 'shell' | 'argv' = 'shell',
): void {
  describe(`${name} (CommandRunner contract${mode === 'argv' ? ', argv mode' : ''})`, () => {
    let runner: CommandRunner;
    let directory: string;
    const base = (command: string): RunCommandOptions =>
      mode === 'argv'
        ? { file: '/bin/sh', args: ['-c', command], cwd: directory, input: '', timeoutMs: 10_000 }
        : { command, cwd: directory, input: '', timeoutMs: 10_000 };
    const argv = (file: string, args: readonly string[]): RunCommandOptions => ({
      file,
      args,
      cwd: directory,
      input: '',
      timeoutMs: 10_000,
    });

    beforeEach(async () => {
      runner = createRunner();
      directory = await mkdtemp(join(tmpdir(), 'hookwire-runner-'));
    });
    afterEach(async () => {
      await runner.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('resolves exit 0 with the stdout the hook wrote', async () => {
      const result = await runner.run(base(`printf '{"ok":true}'`));
      expect(result).toMatchObject({
        termination: 'exited',
        exitCode: 0,
        signal: null,
        stdout: '{"ok":true}',
        stderr: '',
        stdoutTruncated: false,
        stderrTruncated: false,
      });
      expect(result.spawnError).toBeUndefined();
      expect(result.durationMs).toBeGreaterThan(0);
    });

    it('resolves exit 2 with the stderr the hook wrote', async () => {
      const result = await runner.run(base(`echo 'rm -rf is not allowed' >&2; exit 2`));
      expect(result).toMatchObject({
        termination: 'exited',
        exitCode: 2,
        stderr: 'rm -rf is not allowed\n',
      });
    });

    it('resolves exit 1 as an ordinary exit', async () => {
      const result = await runner.run(base('exit 1'));
      expect(result).toMatchObject({ termination: 'exited', exitCode: 1, signal: null });
    });

    it.runIf(mode === 'argv')(
      'argv mode passes each argument verbatim: spaces, quotes and shell syntax are not interpreted',
      async () => {
        const args = ['%s|', 'two words', `it's`, '"double"', '$HOME', '*', 'a;b', '', '\\n'];
        const result = await runner.run(argv('printf', args));
        expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stderr: '' });
        expect(result.stdout).toBe(`${args.slice(1).join('|')}|`);
      },
    );

    it.runIf(mode === 'argv')(
      'argv mode runs the program directly (it is the process-group leader, not a shell)',
      async () => {
        const result = await runner.run(
          argv(process.execPath, [
            '-e',
            'process.stdout.write(String(process.pid === Number(require("fs").readFileSync("/proc/self/stat","utf8").split(") ")[1].split(" ")[2])))',
          ]),
        );
        expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stdout: 'true' });
      },
    );

    it.runIf(mode === 'argv')(
      'argv mode reports a program that does not exist as a spawn error naming it',
      async () => {
        const result = await runner.run(argv('hookwire-no-such-program-anywhere', ['--flag']));
        expect(result.termination).toBe('spawn-error');
        expect(result.exitCode).toBeNull();
        expect(result.spawnError).toContain('hookwire-no-such-program-anywhere');
      },
    );

    it.runIf(mode === 'argv')(
      'argv mode refuses a run that names both a command and a file',
      async () => {
        await expect(
          runner.run({ ...argv('true', []), command: 'true' } as unknown as RunCommandOptions),
        ).rejects.toThrow(/either `command`/);
        await expect(runner.run(argv('', []))).rejects.toThrow(/file must be the program/);
      },
    );

    it.runIf(mode === 'shell')(
      'reports a command that does not exist as exit 127 from the shell',
      async () => {
        const result = await runner.run(base('hookwire-no-such-command-anywhere --flag'));
        expect(result.termination).toBe('exited');
        expect(result.exitCode).toBe(127);
        expect(result.stderr).toContain('hookwire-no-such-command-anywhere');
      },
    );

    it('reports a missing working directory as a spawn error naming the directory', async () => {
      const missing = join(directory, 'no-such-directory');
      const result = await runner.run({ ...base('true'), cwd: missing });
      expect(result.termination).toBe('spawn-error');
      expect(result.exitCode).toBeNull();
      expect(result.spawnError).toBe(`the working directory ${missing} does not exist`);
    });

    it('runs the command in the working directory it is given', async () => {
      const result = await runner.run(base('pwd'));
      expect(result.stdout.trim()).toBe(directory);
    });

    it('delivers the stdin payload exactly, then closes stdin', async () => {
      const payload = `${JSON.stringify({ hook_event_name: 'PreToolUse', text: 'naïve ✓ 🚀\n"quoted"' })}\n\u0000tail`;
      const result = await runner.run({
        ...base(`sh ${quote(fixture('echo-stdin.sh'))}`),
        input: payload,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(payload);
    });

    it('delivers a 6 MiB payload given as bytes exactly, and leaves no payload file behind', async () => {
      const payload = randomBytes(6 * 1024 * 1024);
      const parent = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
      const before = (await readdir(parent)).filter((name) => name.startsWith('hookwire-input-'));
      const result = await runner.run({ ...base('sha256sum'), input: payload });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.split(' ')[0]).toBe(createHash('sha256').update(payload).digest('hex'));
      await runner.close();
      const after = (await readdir(parent)).filter((name) => name.startsWith('hookwire-input-'));
      expect(after.filter((name) => !before.includes(name))).toEqual([]);
    });

    it('ignores the broken pipe of a hook that never reads a 1 MiB payload', async () => {
      const payload = 'x'.repeat(1024 * 1024);
      const results = await Promise.all([
        runner.run({ ...base('exit 0'), input: payload }),
        runner.run({ ...base('echo done'), input: payload }),
      ]);
      expect(results.map((result) => [result.termination, result.exitCode, result.stdout])).toEqual(
        [
          ['exited', 0, ''],
          ['exited', 0, 'done\n'],
        ],
      );
    });

    it('caps a 50 MiB stdout flood at 1 MiB and reports the truncation', async () => {
      const result = await runner.run(base('head -c 52428800 /dev/zero; echo after >&2'));
      expect(result.termination).toBe('exited');
      expect(result.exitCode).toBe(0);
      expect(result.stdout.length).toBe(1024 * 1024);
      expect(result.stdoutTruncated).toBe(true);
      // The flood was drained to the end: the hook got past it and wrote to stderr.
      expect(result.stderr).toBe('after\n');
      expect(result.stderrTruncated).toBe(false);
    });

    it('applies maxOutputBytes per stream and cuts at a character boundary', async () => {
      // "é" is two bytes; a 5-byte cap would split the third one.
      const result = await runner.run({
        ...base(`printf 'éééé'; printf 'ab' >&2`),
        maxOutputBytes: 5,
      });
      expect(result.stdout).toBe('éé');
      expect(result.stdoutTruncated).toBe(true);
      expect(result.stderr).toBe('ab');
      expect(result.stderrTruncated).toBe(false);
    });

    it('passes env over the inherited environment', async () => {
      const result = await runner.run({
        ...base(
          'printf "%s|%s|%s" "$HOOKWIRE_SESSION_ID" "$HOOKWIRE_PROJECT_DIR" "${PATH:+inherited}"',
        ),
        env: { HOOKWIRE_SESSION_ID: 'session-42', HOOKWIRE_PROJECT_DIR: directory },
      });
      expect(result.stdout).toBe(`session-42|${directory}|inherited`);
    });

    it('settles at the deadline while the process group is still being killed, and leaves no process of the group after the grace', async () => {
      const pidFile = join(directory, 'pids');
      const timeoutMs = 1000;
      const killGraceMs = 3000;
      const started = performance.now();
      const pending = runner.run({
        ...base(`sh ${quote(fixture('ignore-term-with-grandchild.sh'))} ${quote(pidFile)}`),
        timeoutMs,
        killGraceMs,
      });
      const [shellPid, grandchildPid, groupId] = (await waitForFile(pidFile))
        .trim()
        .split(' ')
        .map(Number) as [number, number, number];
      const result = await pending;
      const settledAfter = performance.now() - started;

      expect(result.termination).toBe('timeout');
      expect(result.exitCode).toBeNull();
      // Not before the deadline (a lower bound, which load cannot break).
      expect(settledAfter).toBeGreaterThanOrEqual(timeoutMs - 5);
      // Settled before the grace ended, shown by order rather than by a wall-clock bound: the hook
      // ignores SIGTERM and only the SIGKILL at the end of the grace ends it, so its processes
      // are still there when the outcome settles.
      expect(await isRunning(shellPid)).toBe(true);
      expect(await isRunning(grandchildPid)).toBe(true);
      const members = await runningMembersOf(groupId);
      expect(members).toEqual(expect.arrayContaining([shellPid, grandchildPid]));

      // close() resolves when the kill sequence is over: after the grace, SIGKILL to the group.
      await runner.close();
      expect(performance.now() - started).toBeGreaterThanOrEqual(timeoutMs + killGraceMs - 50);
      await expectAllGone(members);
      expect(await runningMembersOf(groupId)).toEqual([]);
    });

    it('finishes the kill sequence as soon as a group that obeys SIGTERM is gone, not after the whole grace', async () => {
      const result = await runner.run({
        ...base('sleep 30 & sleep 30; wait'),
        timeoutMs: 100,
        // Far longer than the test's own timeout: a runner that waited out the grace for a group
        // SIGTERM already emptied would time the test out (no wall-clock assertion needed).
        killGraceMs: 3_600_000,
      });
      expect(result.termination).toBe('timeout');
      // close() waits for every kill sequence.
      await runner.close();
    });

    it('cancels a run when its AbortSignal fires, and kills its group', async () => {
      const readyFile = join(directory, 'ready');
      const controller = new AbortController();
      const pending = runner.run({
        ...base(`sh ${quote(fixture('signal-ready-then-wait.sh'))} ${quote(readyFile)}`),
        // Far past the test's own timeout: only the abort can settle the run in time.
        timeoutMs: 3_600_000,
        killGraceMs: 200,
        signal: controller.signal,
      });
      const hookPid = Number((await waitForFile(readyFile)).trim());
      controller.abort();
      const result = await pending;
      expect(result.termination).toBe('aborted');
      expect(result.exitCode).toBeNull();
      await runner.close();
      await expectAllGone([hookPid]);
    });

    it('resolves a run whose signal is already aborted without starting it', async () => {
      const marker = join(directory, 'ran');
      const result = await runner.run({
        ...base(`touch ${quote(marker)}`),
        signal: AbortSignal.abort(),
      });
      expect(result.termination).toBe('aborted');
      await expect(readFile(marker)).rejects.toThrow();
    });

    it('settles after the drain window when a background grandchild keeps the pipes open, then kills it', async () => {
      const pidFile = join(directory, 'grandchild');
      const result = await runner.run({
        ...base(`sh ${quote(fixture('background-holds-pipes.sh'))} ${quote(pidFile)}`),
        killGraceMs: 200,
      });
      expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stdout: 'answer\n' });
      const grandchildPid = Number((await readFile(pidFile, 'utf8')).trim());
      // The grandchild holds the pipes for 300 s, past the test's own timeout: settling at all
      // shows the run did not wait for them (no wall-clock bound needed).
      await runner.close();
      await expectAllGone([grandchildPid]);
    });

    it('kills a grandchild that left the group with setsid within the grace after the deadline', async () => {
      const pidFile = join(directory, 'escapee');
      const killGraceMs = 300;
      const result = await runner.run({
        ...base(`sh ${quote(fixture('setsid-escapee.sh'))} ${quote(pidFile)} wait`),
        timeoutMs: 1000,
        killGraceMs,
      });
      expect(result.termination).toBe('timeout');
      const [escapeePid, escapeeSession] = (await waitForFile(pidFile))
        .trim()
        .split(' ')
        .map(Number) as [number, number];
      expect(escapeeSession).toBe(escapeePid); // it really left the hook's session and group
      // Gone within the grace (plus the time a SIGKILL takes to land), without close().
      await expectAllGone([escapeePid], killGraceMs + 1000);
    });

    it('kills a grandchild that left the group with setsid when the run is cancelled', async () => {
      const pidFile = join(directory, 'escapee');
      const controller = new AbortController();
      const pending = runner.run({
        ...base(`sh ${quote(fixture('setsid-escapee.sh'))} ${quote(pidFile)} wait`),
        timeoutMs: 20_000,
        killGraceMs: 300,
        signal: controller.signal,
      });
      const [escapeePid] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number];
      controller.abort();
      expect((await pending).termination).toBe('aborted');
      await expectAllGone([escapeePid], 1300);
    });

    it('settles a clean exit at once although a setsid daemon holds its pipes, and kills the daemon on close', async () => {
      const pidFile = join(directory, 'escapee');
      const result = await runner.run({
        ...base(`sh ${quote(fixture('setsid-escapee.sh'))} ${quote(pidFile)}`),
        killGraceMs: 300,
      });
      expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stdout: 'answer\n' });
      const [escapeePid] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number];
      // A daemon started by a hook that exited cleanly lives as long as its runner ...
      expect(await isRunning(escapeePid)).toBe(true);
      // ... and no longer.
      await runner.close();
      await expectAllGone([escapeePid]);
    });

    it('keeps the outputs of many concurrent runs separate', async () => {
      const runs = Array.from({ length: 24 }, (_, index) =>
        runner.run({
          ...base(`cat; printf ' %s' "$RUN_INDEX"; echo "err $RUN_INDEX" >&2`),
          input: `payload-${index}`,
          env: { RUN_INDEX: String(index) },
        }),
      );
      const results = await Promise.all(runs);
      results.forEach((result, index) => {
        expect(result.stdout).toBe(`payload-${index} ${index}`);
        expect(result.stderr).toBe(`err ${index}\n`);
      });
    });

    it('runs a burst of ten at once: each logs its start before any logs its end', async () => {
      // A barrier in an execution log: a run waits until all ten have started before it ends.
      const log = join(directory, 'execution.log');
      const barrier = [
        `echo "start $RUN_INDEX" >> ${quote(log)}`,
        'tries=0',
        `while [ "$(grep -c '^start' ${quote(log)})" -lt 10 ]; do`,
        '  tries=$((tries + 1)); [ "$tries" -gt 2000 ] && exit 3',
        '  sleep 0.005',
        'done',
        `echo "end $RUN_INDEX" >> ${quote(log)}`,
      ].join('\n');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          runner.run({ ...base(barrier), timeoutMs: 60_000, env: { RUN_INDEX: String(index) } }),
        ),
      );
      expect(results.map((result) => result.exitCode)).toEqual(Array(10).fill(0));
      const lines = (await readFile(log, 'utf8')).trim().split('\n');
      expect(lines.slice(0, 10).map((line) => line.split(' ')[0])).toEqual(Array(10).fill('start'));
      expect(lines.slice(10).sort()).toEqual(
        Array.from({ length: 10 }, (_, index) => `end ${index}`).sort(),
      );
    });

    it('delivers large payloads given at once each to its own run, exactly', async () => {
      const payloads = Array.from({ length: 3 }, () => randomBytes(2 * 1024 * 1024 + 17));
      const results = await Promise.all(
        payloads.map((payload) => runner.run({ ...base('sha256sum'), input: payload })),
      );
      expect(results.map((result) => result.stdout.split(' ')[0])).toEqual(
        payloads.map((payload) => createHash('sha256').update(payload).digest('hex')),
      );
    });

    it('rejects invalid options with an error naming the option', async () => {
      await expect(runner.run({ ...base('true'), timeoutMs: 0 })).rejects.toThrow(
        /timeoutMs must be a positive number/,
      );
      await expect(runner.run({ ...base('true'), maxOutputBytes: -1 })).rejects.toBeInstanceOf(
        CommandRunnerError,
      );
      if (mode === 'shell')
        await expect(runner.run(base('  '))).rejects.toThrow(/command must be a non-empty/);
    });

    it('rejects runs after close', async () => {
      await runner.close();
      await expect(runner.run(base('true'))).rejects.toMatchObject({
        code: 'command_runner_closed',
      });
    });
  });
}
