/**
 * Long-lived processes hookwire starts — stdio MCP servers and process hooks — never outlive
 * hookwire, even a SIGKILLed one. The MCP server fixture here ignores the end of its stdin and
 * SIGTERM (only SIGKILL ends it); the process hook fixture keeps running after its stdin ends
 * (a `sleep` child holds it). Nothing but hookwire's orphan watchdog
 * (src/supervision/watchdog.ts) can end them once hookwire is gone. The run is
 * killed while the session is live (the model "thinks" for a minute); the pids are polled in
 * /proc until they are gone, within a bound.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  expectAllGone,
  isRunning,
  waitForFile,
} from '../../src/supervision/command-runner.contract.ts';
import { existsSync } from 'node:fs';
import {
  MAIN,
  REPOSITORY,
  callTool,
  createSandbox,
  scriptedRunArgs,
  writeJson,
  writeScript,
} from './support.ts';

// The sources, and the built bundle users run (its watchdog is a separate entry of the bundle,
// dist/bin/orphan-watchdog.js: a missing one would leave the processes running).
const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const ENTRIES = [['sources', MAIN], ...(existsSync(BIN) ? [['built bin', BIN]] : [])] as const;

const STDIO_SERVER = resolve(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');
const GUARD = fileURLToPath(new URL('../fixtures/process-hooks/shell-guard.mjs', import.meta.url));

const KILLS = [
  ['SIGKILL to its pid', (pid: number) => process.kill(pid, 'SIGKILL')],
  ['SIGKILL to its process group', (pid: number) => process.kill(-pid, 'SIGKILL')],
] as const;

/**
 * The first complete line of `file` (polled: the file may exist before its line is written). A
 * line that never comes fails the test at its own timeout, not at a wall-clock bound of ours.
 */
async function firstLine(file: string): Promise<string> {
  for (;;) {
    const text = await waitForFile(file);
    const end = text.indexOf('\n');
    if (end !== -1) return text.slice(0, end);
    await new Promise((settle) => setTimeout(settle, 5));
  }
}

/** Kills `pids` (if still running) when the test ends, whatever its outcome. */
function killAtEnd(pids: () => readonly (number | undefined)[]): void {
  onTestFinished(async () => {
    for (const pid of pids())
      if (pid !== undefined && (await isRunning(pid))) process.kill(pid, 'SIGKILL');
  });
}

describe('stdio MCP servers are contained (real CLI)', () => {
  for (const [entry, main] of ENTRIES)
    for (const [how, kill] of KILLS) {
      it(`hookwire run (${entry}) killed by ${how} leaves no MCP server running, though the server ignores stdin EOF and SIGTERM`, async () => {
        const sandbox = await createSandbox();
        const pidFile = join(sandbox.root, 'server.pid');
        await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
          mcpServers: {
            stubborn: {
              command: process.execPath,
              args: [STDIO_SERVER, 'stubborn'],
              env: { HOOKWIRE_TEST_MCP_PID_FILE: pidFile, HOOKWIRE_TEST_MCP_IGNORE_EOF: '1' },
            },
          },
        });
        const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
          callTool('c1', 'mcp__stubborn__echo', { text: 'alive' }),
          // The model "thinks" for a minute: hookwire is killed during this call.
          { blocks: [{ type: 'text', text: 'never' }], finishReason: 'stop', delayMs: 60_000 },
        ]);
        // Its own process group, as a shell job, a CI step or a container's init would run it.
        const child = spawn(
          process.execPath,
          [main, ...scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json'])],
          { env: sandbox.env, stdio: ['ignore', 'pipe', 'ignore'], detached: true },
        );
        const exited = new Promise((settle) => child.once('exit', settle));
        const serverPids: number[] = [];
        killAtEnd(() => [child.pid, ...serverPids]);
        // The MCP call answered: the session is live, its server connected.
        const answered = await new Promise<Record<string, unknown>>((settle, reject) => {
          let pending = '';
          child.stdout.setEncoding('utf8');
          child.stdout.on('data', (chunk: string) => {
            pending += chunk;
            for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
              const line = JSON.parse(pending.slice(0, at)) as Record<string, unknown>;
              pending = pending.slice(at + 1);
              if (line['type'] === 'tool-result') settle(line);
            }
          });
          child.once('exit', () => {
            reject(new Error('hookwire exited before the MCP call answered'));
          });
        });
        expect(answered['result']).toBe('echo: alive');
        const serverPid = Number((await waitForFile(pidFile)).trim());
        serverPids.push(serverPid);
        expect(await isRunning(serverPid)).toBe(true);

        kill(child.pid!);
        await exited;
        // The watchdog's grace is 2 s; the server ignores SIGTERM and needs the SIGKILL after it.
        await expectAllGone([serverPid]);
      }, 40_000);
    }
});

describe('process hooks are contained (real CLI)', () => {
  for (const [entry, main] of ENTRIES)
    for (const [how, kill] of KILLS) {
      it(`hookwire run (${entry}) killed by ${how} leaves no process hook (nor its child) running`, async () => {
        const sandbox = await createSandbox();
        const log = join(sandbox.root, 'guard.log');
        await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
          hooks: {
            PreToolUse: [
              {
                matcher: 'shell',
                hooks: [
                  {
                    type: 'process',
                    start: 'session',
                    command: `HOOK_LOG=${JSON.stringify(log)} ${JSON.stringify(process.execPath)} ${JSON.stringify(GUARD)}`,
                  },
                ],
              },
            ],
          },
        });
        const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
          { blocks: [{ type: 'text', text: 'never' }], finishReason: 'stop', delayMs: 60_000 },
        ]);
        const child = spawn(
          process.execPath,
          [main, 'run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
          { env: sandbox.env, stdio: 'ignore', detached: true },
        );
        const exited = new Promise((settle) => child.once('exit', settle));
        let started: number[] = [];
        killAtEnd(() => [child.pid, ...started]);
        // "start": "session": the process is up (with its child) before the model call.
        const line = await firstLine(log);
        expect(line).toMatch(/^start \d+ \d+$/);
        started = line.split(' ').slice(1).map(Number);
        for (const pid of started) expect(await isRunning(pid)).toBe(true);

        kill(child.pid!);
        await exited;
        await expectAllGone(started);
        expect(await readFile(log, 'utf8')).toBe(`${line}\n`); // it was never asked anything
      }, 40_000);
    }
});
