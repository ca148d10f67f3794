/**
 * `hookwire run --resume` and the session lock (issue 11, finding 7): while one process runs a
 * session, a second `--resume` of it fails at once naming the holder; after the holder is killed
 * with SIGKILL, the next `--resume` takes the stale lock over.
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN, createSandbox, runCli, say, writeScript, type Sandbox } from './support.ts';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0))
    await rm(sandbox.root, { recursive: true, force: true });
});

describe('hookwire run --resume while another process runs the session', () => {
  it('fails at once naming the holder, and takes the lock over once the holder died by SIGKILL', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('first')]);
    const common = ['--model', `scripted:${script}`, '--cwd', sandbox.project];
    const first = await runCli(['run', 'one', ...common, '--output-format', 'json'], {
      env: sandbox.env,
    });
    expect(first.code, first.stderr).toBe(0);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    // The scripted model replays from line 1 in each process: give the holder the slow line.
    const slowScript = await writeScript(join(sandbox.root, 'slow.jsonl'), [
      { blocks: [{ type: 'text', text: 'slow' }], finishReason: 'stop', delayMs: 3_600_000 },
    ]);

    const holder = spawn(
      process.execPath,
      [
        MAIN,
        'run',
        'two',
        '--model',
        `scripted:${slowScript}`,
        '--cwd',
        sandbox.project,
        '--resume',
        sessionId,
        '--output-format',
        'stream-json',
      ],
      { env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      holder.on('close', (_code, signal) => {
        resolve(signal);
      });
    });
    // Wait until the holder has opened the session (its first stream-json line).
    await new Promise<void>((resolve) => {
      holder.stdout.once('data', () => {
        resolve();
      });
    });
    const lock = JSON.parse(
      await readFile(
        join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl.lock`),
        'utf8',
      ),
    ) as { pid: number; host: string; startedAt: string };
    expect(lock.pid).toBe(holder.pid);

    const second = await runCli(['run', 'three', ...common, '--resume', sessionId], {
      env: sandbox.env,
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `hookwire: Session ${sessionId} is in use by another hookwire process (pid ${holder.pid} on host ${lock.host}, since ${lock.startedAt};`,
    );
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    // "At once": it does not wait for the holder, whose model call takes an hour, far past the
    // test's timeout (no wall-clock bound needed).

    holder.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const third = await runCli(
      ['run', 'four', ...common, '--resume', sessionId, '--output-format', 'json'],
      { env: sandbox.env },
    );
    expect(third.code, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ status: 'completed', result: 'first' });
    await expect(
      readFile(join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl.lock`)),
    ).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
