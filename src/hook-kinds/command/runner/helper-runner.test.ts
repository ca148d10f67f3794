import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
import { createHelperRunner, type HelperCommandRunner } from './helper-runner.ts';

describeCommandRunnerContract('helper runner', createHelperRunner);

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

  it('starts no helper until the first run, then reuses one helper for every run', async () => {
    expect(runner.helperProcessId).toBeUndefined();
    await runner.run({ command: 'true', cwd: directory, input: '', timeoutMs: 10_000 });
    const first = runner.helperProcessId;
    expect(first).toBeTypeOf('number');
    await Promise.all(
      Array.from({ length: 5 }, () =>
        runner.run({ command: 'true', cwd: directory, input: '', timeoutMs: 10_000 }),
      ),
    );
    expect(runner.helperProcessId).toBe(first);
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
});
