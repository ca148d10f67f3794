/**
 * Process containment through the real CLI (`node src/cli/main.ts`): a hook's grandchild that
 * left the hook's process group and session with `setsid` (fixture setsid-escapee.sh, which
 * ignores SIGTERM and holds the hook's stdout) never outlives its deadline, a cancelled run, or
 * hookwire itself. Processes are found by the pid the fixture records, and polled until gone.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expectAllGone,
  fixture,
  isRunning,
  waitForFile,
} from '../../src/supervision/command-runner.contract.ts';
import {
  MAIN,
  createSandbox,
  runCli,
  say,
  settingsWith,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => rm(s.root, { recursive: true, force: true })));
});

async function sandboxWithHook(
  event: string,
  mode: 'exit' | 'wait',
  timeoutSeconds: number,
): Promise<{ sandbox: Sandbox; pidFile: string }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const pidFile = join(sandbox.root, 'escapee');
  const command = `sh '${fixture('setsid-escapee.sh')}' '${pidFile}'${mode === 'wait' ? ' wait' : ''}`;
  await writeJson(
    join(sandbox.project, '.hookwire', 'settings.json'),
    settingsWith({ [event]: [{ command, timeout: timeoutSeconds }] }),
  );
  return { sandbox, pidFile };
}

async function escapeePid(pidFile: string): Promise<number> {
  return Number((await waitForFile(pidFile)).trim().split(' ')[0]);
}

describe('process containment (real CLI)', () => {
  it('hooks fire returns at once when a setsid daemon of a clean hook holds its stdout, and the daemon is gone', async () => {
    const { sandbox, pidFile } = await sandboxWithHook('UserPromptSubmit', 'exit', 60);
    const input = await writeJson(join(sandbox.root, 'payload.json'), { prompt: 'hi' });
    const outcome = await runCli(
      ['hooks', 'fire', 'UserPromptSubmit', '--cwd', sandbox.project, '--input', input],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    // The daemon ignores SIGTERM, so closing waits out the 2 s grace; nowhere near the daemon's
    // lifetime (forever) or the hook's 60 s timeout, both past the test's 30 s timeout (no
    // wall-clock bound needed).
    expect(JSON.parse(outcome.stdout)).toMatchObject({ event: 'UserPromptSubmit' });
    await expectAllGone([await escapeePid(pidFile)]);
  }, 30_000);

  it('hooks fire: the setsid grandchild of a hook that hangs is gone within the grace after the deadline', async () => {
    const { sandbox, pidFile } = await sandboxWithHook('UserPromptSubmit', 'wait', 1);
    const input = await writeJson(join(sandbox.root, 'payload.json'), { prompt: 'hi' });
    const outcome = await runCli(
      ['hooks', 'fire', 'UserPromptSubmit', '--cwd', sandbox.project, '--input', input],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/timed out/);
    await expectAllGone([await escapeePid(pidFile)]);
  }, 30_000);

  it('hookwire run: the setsid grandchild of a hook that hangs is gone within the grace after the deadline', async () => {
    const { sandbox, pidFile } = await sandboxWithHook('UserPromptSubmit', 'wait', 1);
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('done')]);
    const outcome = await runCli(
      ['run', 'hello', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    await expectAllGone([await escapeePid(pidFile)]);
  }, 30_000);

  for (const [how, kill] of [
    ['SIGTERM to its pid', (pid: number) => process.kill(pid, 'SIGTERM')],
    ['SIGKILL to its pid', (pid: number) => process.kill(pid, 'SIGKILL')],
    ['SIGKILL to its process group', (pid: number) => process.kill(-pid, 'SIGKILL')],
  ] as const) {
    it(`hookwire run killed by ${how} while a hook hangs leaves no process of the hook`, async () => {
      const { sandbox, pidFile } = await sandboxWithHook('UserPromptSubmit', 'wait', 120);
      const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('done')]);
      // Its own process group, as a shell job, a CI step or a container's init would run it.
      const child = spawn(
        process.execPath,
        [MAIN, 'run', 'hello', '--model', `scripted:${script}`, '--cwd', sandbox.project],
        { env: sandbox.env, stdio: 'ignore', detached: true },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const pid = await escapeePid(pidFile);
      expect(await isRunning(pid)).toBe(true);
      kill(child.pid!);
      await exited;
      // The hooks' grace is 2 s by default; the escapee ignores SIGTERM and needs the SIGKILL.
      await expectAllGone([pid]);
    }, 30_000);
  }
});
