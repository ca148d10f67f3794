import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeCommandRunnerContract,
  expectAllGone,
  fixture,
  isRunning,
  waitForFile,
} from './command-runner.contract.ts';
import {
  createHelperRunner,
  nativeHelperAvailable,
  type HelperCommandRunner,
} from './helper-runner.ts';

describeCommandRunnerContract('helper runner (Node helper)', () =>
  createHelperRunner({ helper: 'node' }),
);
describeCommandRunnerContract(
  'helper runner (Node helper)',
  () => createHelperRunner({ helper: 'node' }),
  'argv',
);
// The native helper is built at install where a C compiler exists (scripts/build-native.ts).
if (nativeHelperAvailable()) {
  describeCommandRunnerContract('helper runner (native helper)', () =>
    createHelperRunner({ helper: 'native' }),
  );
  describeCommandRunnerContract(
    'helper runner (native helper)',
    () => createHelperRunner({ helper: 'native' }),
    'argv',
  );
}

/** This process's file descriptors that lead to a payload file or pipe of a runner. */
async function openPayloadDescriptors(): Promise<string[]> {
  const targets: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    try {
      const target = await readlink(`/proc/self/fd/${fd}`);
      if (target.includes('hookwire-input-')) targets.push(target);
    } catch {
      // closed while we listed them (readdir's own descriptor)
    }
  }
  return targets;
}

describe('native spawn helper build', () => {
  it('is built wherever cc exists, and is what the runner picks by default', () => {
    const hasCompiler = spawnSync('cc', ['--version'], { stdio: 'ignore' }).status === 0;
    expect(nativeHelperAvailable()).toBe(hasCompiler);
    expect(createHelperRunner({ start: 'lazy' }).helperKind).toBe(hasCompiler ? 'native' : 'node');
  });
});

describe('helper runner', () => {
  let runner: HelperCommandRunner;
  let directory: string;
  beforeEach(async () => {
    runner = createHelperRunner();
    directory = await mkdtemp(join(tmpdir(), 'hookwire-helper-'));
  });
  afterEach(async () => {
    await runner.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('starts the helper when created, so it is ready before the first hook, then reuses it for every run', async () => {
    const first = runner.helperProcessId;
    expect(first).toBeTypeOf('number');
    await runner.run({ command: 'true', cwd: directory, input: '', timeoutMs: 10_000 });
    expect(runner.helperProcessId).toBe(first);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        runner.run({ command: 'true', cwd: directory, input: '', timeoutMs: 10_000 }),
      ),
    );
    expect(runner.helperProcessId).toBe(first);
  });

  for (const helper of ['native', 'node'] as const) {
    it.runIf(helper === 'node' || nativeHelperAvailable())(
      `${helper} helper: stops delivering a large payload to a hook that never reads it once the run settles`,
      async () => {
        const other = createHelperRunner({ helper });
        try {
          // 10 MiB into a hook that holds its stdin open and never reads: the delivery stalls
          // on a full pipe until the deadline settles the run, then nothing of it stays open.
          const result = await other.run({
            command: 'sleep 30',
            cwd: directory,
            input: Buffer.alloc(10 * 1024 * 1024, 'x'),
            timeoutMs: 300,
            killGraceMs: 100,
          });
          expect(result.termination).toBe('timeout');
          const open = await openPayloadDescriptors();
          expect(open).toEqual([]);
          // The runner goes on as before.
          const next = await other.run({
            command: 'wc -c',
            cwd: directory,
            input: Buffer.alloc(3 * 1024 * 1024, 'y'),
            timeoutMs: 10_000,
          });
          expect(next.stdout.trim()).toBe(String(3 * 1024 * 1024));
        } finally {
          await other.close();
        }
      },
    );
  }

  it('starts no helper until the first run with start: lazy', async () => {
    const lazy = createHelperRunner({ start: 'lazy' });
    try {
      expect(lazy.helperProcessId).toBeUndefined();
      await lazy.run({ command: 'true', cwd: directory, input: '', timeoutMs: 10_000 });
      expect(lazy.helperProcessId).toBeTypeOf('number');
    } finally {
      await lazy.close();
    }
  });

  it('restarts the helper transparently after it was killed', async () => {
    const options = { command: 'echo alive', cwd: directory, input: '', timeoutMs: 10_000 };
    expect((await runner.run(options)).stdout).toBe('alive\n');
    const killed = runner.helperProcessId!;
    process.kill(killed, 'SIGKILL');
    // Sent at once, possibly to the dying helper: the run is resent to its successor.
    const result = await runner.run(options);
    expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stdout: 'alive\n' });
    expect(runner.helperProcessId).toBeTypeOf('number');
    expect(runner.helperProcessId).not.toBe(killed);
    await expectAllGone([killed]);
  });

  it('resolves a run as a spawn error and kills its group when the helper dies under it', async () => {
    const pidFile = join(directory, 'pids');
    const pending = runner.run({
      command: `sh '${fixture('ignore-term-with-grandchild.sh')}' '${pidFile}'`,
      cwd: directory,
      input: '',
      timeoutMs: 30_000,
    });
    const [shellPid, grandchildPid] = (await waitForFile(pidFile))
      .trim()
      .split(' ')
      .map(Number) as [number, number];
    process.kill(runner.helperProcessId!, 'SIGKILL');
    const result = await pending;
    expect(result.termination).toBe('spawn-error');
    expect(result.spawnError).toMatch(/spawn helper exited \(SIGKILL\)/);
    await expectAllGone([shellPid, grandchildPid]);
  });

  it('exits, killing its hooks, when the process that started it dies', async () => {
    const readyFile = join(directory, 'ready');
    const parent = spawn(process.execPath, [fixture('runner-parent.ts'), readyFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: parent.stdout });
    const helperPid = Number((await lines[Symbol.asyncIterator]().next()).value);
    const hookPid = Number((await waitForFile(readyFile)).trim());
    expect(await isRunning(helperPid)).toBe(true);
    parent.kill('SIGKILL');
    await expectAllGone([helperPid, hookPid], 5000);
  });

  it.runIf(nativeHelperAvailable())(
    'native helper: kills at close an orphan that cleared its environment and left the group (subreaper)',
    async () => {
      const native = createHelperRunner({ helper: 'native' });
      const pidFile = join(directory, 'orphan');
      // Double fork (the subshell exits at once), setsid, and env -i: neither the tag nor a live
      // parent leads to it; only being the helper's orphan does.
      const daemon = `trap '' TERM; echo $$ > "$0.partial"; mv "$0.partial" "$0"; while :; do /bin/sleep 1; done`;
      const result = await native.run({
        command: `( /usr/bin/env -i /usr/bin/setsid /bin/sh -c '${daemon}' '${pidFile}' & ); echo started`,
        cwd: directory,
        input: '',
        timeoutMs: 10_000,
        killGraceMs: 200,
      });
      expect(result).toMatchObject({ termination: 'exited', stdout: 'started\n' });
      const orphan = Number((await waitForFile(pidFile)).trim());
      expect(await isRunning(orphan)).toBe(true);
      await native.close();
      await expectAllGone([orphan], 3000);
    },
  );

  // A hook's grandchild that left its group (setsid) and ignores SIGTERM, under a parent that
  // dies: by SIGTERM, by SIGKILL of its pid, and by SIGKILL of its whole process group (what a
  // terminal, a CI runner or a container stop does). The parent leads its own group, as a
  // shell's job would.
  for (const [how, kill] of [
    ['SIGTERM to its pid', (pid: number) => process.kill(pid, 'SIGTERM')],
    ['SIGKILL to its pid', (pid: number) => process.kill(pid, 'SIGKILL')],
    ['SIGKILL to its process group', (pid: number) => process.kill(-pid, 'SIGKILL')],
  ] as const) {
    it(`kills a hook's setsid grandchild when the process that started the helper dies by ${how}`, async () => {
      const pidFile = join(directory, 'escapee');
      const parent = spawn(
        process.execPath,
        [fixture('runner-parent.ts'), pidFile, 'setsid-escapee.sh', 'wait'],
        { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
      );
      const lines = createInterface({ input: parent.stdout });
      const helperPid = Number((await lines[Symbol.asyncIterator]().next()).value);
      const [escapeePid] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number];
      expect(await isRunning(helperPid)).toBe(true);
      expect(await isRunning(escapeePid)).toBe(true);
      kill(parent.pid!);
      // The hook's grace is 200 ms; the rest is the time the helper needs to notice and scan.
      await expectAllGone([parent.pid!, helperPid, escapeePid], 5000);
    });
  }
});
