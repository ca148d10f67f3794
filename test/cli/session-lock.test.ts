/**
 * `hookwire run --resume` and the session lock (issue 11, finding 7): while one process runs a
 * session, a second `--resume` of it fails at once naming the holder; after the holder is killed
 * with SIGKILL, the next `--resume` takes the stale lock over.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  MAIN,
  REPOSITORY,
  callTool,
  createSandbox,
  runCli,
  say,
  writeScript,
  type Sandbox,
} from './support.ts';

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

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');

/** Why a PID namespace cannot be made here (not root, no unshare, no build), or undefined. */
function noPidNamespace(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: unshare --pid needs root';
  if (!existsSync(BIN)) return `${BIN} is missing (npm run build)`;
  const probe = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], {
    stdio: 'pipe',
  });
  if (probe.error !== undefined) return `unshare cannot run: ${probe.error.message}`;
  if (probe.status !== 0)
    return `unshare --pid --fork --mount-proc failed: ${probe.stderr.toString().trim()}`;
  return undefined;
}

const noNamespace = noPidNamespace();
if (noNamespace !== undefined) console.log(`SKIP PID namespace lock test: ${noNamespace}`);

describe.skipIf(noNamespace !== undefined)('a session lock held from another PID namespace', () => {
  it('is never taken over while its holder runs: the second run is refused naming the namespace, and the holder completes', async () => {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env };
    const first = await runCli(
      [
        'run',
        'one',
        '--model',
        `scripted:${await writeScript(join(sandbox.root, 'one.jsonl'), [say('first')])}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
      ],
      { env, main: BIN },
    );
    expect(first.code, first.stderr).toBe(0);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    // The holder's tool blocks on a fifo the test controls, once it has said it started.
    const fifo = join(sandbox.root, 'gate');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const started = join(sandbox.root, 'started');
    const effects = join(sandbox.root, 'effects.log');
    const holderScript = await writeScript(join(sandbox.root, 'holder.jsonl'), [
      callTool('h1', 'shell', {
        command: `echo h1 >> ${effects} && touch ${started} && read line < ${fifo}`,
      }),
      say('holder done'),
    ]);
    const holder = spawn(
      'unshare',
      [
        '--pid',
        '--fork',
        '--mount-proc',
        '--kill-child',
        process.execPath,
        BIN,
        'run',
        'two',
        '--model',
        `scripted:${holderScript}`,
        '--cwd',
        sandbox.project,
        '--resume',
        sessionId,
        '--output-format',
        'json',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let holderOut = '';
    let holderErr = '';
    holder.stdout.setEncoding('utf8').on('data', (text: string) => (holderOut += text));
    holder.stderr.setEncoding('utf8').on('data', (text: string) => (holderErr += text));
    const exited = new Promise<number | null>((resolve) => {
      holder.on('close', (code) => {
        resolve(code);
      });
    });
    onTestFinished(async () => {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
      await exited;
    });
    // Wait for the holder's tool to run (it holds the lock by then), or for it to fail.
    await Promise.race([
      (async () => {
        while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
      exited.then((code) => {
        throw new Error(`the holder exited (${String(code)}) before its tool ran: ${holderErr}`);
      }),
    ]);
    const lockPath = join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl.lock`);
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as {
      pid: number;
      pidNamespace?: string;
    };
    // Inside its namespace the holder is pid 1 (here, pid 1 is another, live, process).
    expect(lock.pid).toBe(1);
    const own = readlinkSync('/proc/self/ns/pid');
    expect(lock.pidNamespace).toMatch(/^pid:\[\d+\]$/);
    expect(lock.pidNamespace).not.toBe(own);

    const second = await runCli(
      [
        'run',
        'three',
        '--model',
        `scripted:${await writeScript(join(sandbox.root, 'three.jsonl'), [callTool('s1', 'shell', { command: `echo s1 >> ${effects}` }), say('second')])}`,
        '--cwd',
        sandbox.project,
        '--resume',
        sessionId,
      ],
      { env, main: BIN },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `hookwire: Session ${sessionId} is in use by another hookwire process (pid 1 on host`,
    );
    expect(second.stderr).toContain(
      `it runs in another PID namespace (${lock.pidNamespace ?? ''}; this process is in ${own})`,
    );
    expect(second.stderr).toContain(
      `the lock is never taken over; once it is gone, delete ${lockPath}`,
    );
    // The lock is still the holder's, and the refused run ran nothing.
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toEqual(lock);

    // Release the holder's tool: it completes, alone.
    await writeFile(fifo, 'go\n');
    expect(await exited, holderErr).toBe(0);
    expect(JSON.parse(holderOut)).toMatchObject({ status: 'completed', result: 'holder done' });
    expect((await readFile(effects, 'utf8')).split('\n').filter(Boolean)).toEqual(['h1']);
    expect(existsSync(lockPath)).toBe(false);
  }, 60_000);
});
