import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectAllGone, isRunning } from './command-runner.contract.ts';
import { createContainmentScope } from './containment.ts';
import { startWatchdog } from './watchdog.ts';

/** A process leading its own group that ignores SIGTERM, outside any scope's tag. */
function stubborn(): number {
  const child = spawn('sh', ['-c', "trap '' TERM; while :; do sleep 1; done"], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const pid = child.pid!;
  onTestFinished(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  });
  return pid;
}

describe('the orphan watchdog', () => {
  it('kills the groups it watches when its pipe closes (SIGTERM, then SIGKILL after the grace), and exits', async () => {
    const watchdog = startWatchdog(createContainmentScope().prefix, { graceMs: 300 });
    const pid = stubborn();
    watchdog.watch(pid);
    expect(await isRunning(pid)).toBe(true);
    await watchdog.close();
    await expectAllGone([pid]);
    // close() waits for its exit only up to a bound; the watchdog exits all the same.
    await expectAllGone([watchdog.pid!]);
  });

  it('leaves a released group alone', async () => {
    const watchdog = startWatchdog(createContainmentScope().prefix, { graceMs: 300 });
    const pid = stubborn();
    watchdog.watch(pid);
    watchdog.release(pid);
    await watchdog.close();
    // close() waits for its exit only up to a bound; the watchdog exits all the same.
    await expectAllGone([watchdog.pid!]);
    expect(await isRunning(pid)).toBe(true);
  });

  it("kills processes carrying the scope's tag that left every watched group", async () => {
    const scope = createContainmentScope();
    const watchdog = startWatchdog(scope.prefix, { graceMs: 300 });
    const child = spawn('sh', ['-c', 'exec sleep 60'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, HOOKWIRE_HOOK_RUN: scope.nextTag() },
    });
    child.unref();
    const pid = child.pid!;
    onTestFinished(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    });
    await watchdog.close();
    await expectAllGone([pid]);
  });
});
