import { describe, expect, it } from 'vitest';
import { describeCommandRunnerContract } from './command-runner.contract.ts';
import type { CommandRunner } from './command-runner.ts';
import { deferredRunner } from './deferred-runner.ts';

describeCommandRunnerContract('deferred runner (helper runner created on first run)', () =>
  deferredRunner(async () =>
    (await import('./helper-runner.ts')).createHelperRunner({ start: 'lazy' }),
  ),
);

describe('deferredRunner', () => {
  it('creates the runner on the first run, once, and closes what it created', async () => {
    const log: string[] = [];
    const inner: CommandRunner = {
      run: async (options) => {
        log.push(`run ${options.command}`);
        return {
          stdout: '',
          stderr: '',
          exitCode: 0,
          signal: null,
          termination: 'exited',
          durationMs: 0,
          stdoutTruncated: false,
          stderrTruncated: false,
        };
      },
      close: async () => {
        log.push('close');
      },
    };
    const runner = deferredRunner(async () => {
      log.push('create');
      return inner;
    });
    expect(log).toEqual([]);
    const options = { cwd: '/', input: '', timeoutMs: 1000 };
    await Promise.all([
      runner.run({ ...options, command: 'a' }),
      runner.run({ ...options, command: 'b' }),
    ]);
    await runner.close();
    expect(log).toEqual(['create', 'run a', 'run b', 'close']);
  });

  it('a runner closed before any run creates nothing, and refuses runs after', async () => {
    let created = 0;
    const runner = deferredRunner(async () => {
      created++;
      throw new Error('not to be created');
    });
    await runner.close();
    await expect(
      runner.run({ command: 'true', cwd: '/', input: '', timeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'command_runner_closed' });
    expect(created).toBe(0);
  });
});
