/**
 * Processes left behind (issue 27): escapes that killing an intermediate process opened, through
 * the built CLI. A marker process clears its environment and leaves its session (`env -i …
 * setsid`), so neither the containment tag, the process group nor the process's parent (killed,
 * or exited: a double fork) leads to it; it carries a unique environment entry of its own, found
 * in /proc after the run. The three kinds of process hookwire starts are tried: the shell (through
 * the spawn helper), a process hook, a stdio MCP server. With the reaper (`src/supervision/reaper.ts`, a child
 * subreaper above the spawn helper, each process hook and each stdio MCP server) 0 survive;
 * `HOOKWIRE_REAPER=off` shows each escape as it was before (the marker outlives hookwire).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  REPOSITORY,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  scriptedRunArgs,
  writeJson,
  writeScript,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const built = existsSync(BIN);
const reaper = existsSync(join(REPOSITORY, 'native', 'build', 'hookwire-spawn'));
if (!built || !reaper)
  console.warn('escapes.test.ts skipped: run npm run build (the bundle and the native helper)');

const MARKER_VARIABLE = 'HOOKWIRE_TEST_ESCAPE';
const STDIO_SERVER = join(REPOSITORY, 'test', 'fixtures', 'mcp', 'stdio-server.ts');

/** The pids of running processes whose environment holds MARKER_VARIABLE=marker. */
async function markerProcesses(marker: string): Promise<number[]> {
  const needle = `${MARKER_VARIABLE}=${marker}`;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const environment = await readFile(`/proc/${entry}/environ`, 'utf8');
      if (environment.split('\0').includes(needle)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Waits until no marker process runs; returns those still running at the bound. The bound only
 * ends the wait for a real survivor (the marker sleeps 120 s): killing takes a 2 s grace at most.
 */
async function survivorsAfter(marker: string, boundMs = 15_000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const running = await markerProcesses(marker);
    if (running.length === 0 || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A shell command that starts the marker: env cleared, its own session, its parent gone. */
function escapee(marker: string): string {
  return `( env -i ${MARKER_VARIABLE}=${marker} setsid sh -c 'exec sleep 120' > /dev/null 2>&1 & )`;
}

const markers: string[] = [];
afterEach(async () => {
  for (const marker of markers.splice(0))
    for (const pid of await markerProcesses(marker)) process.kill(pid, 'SIGKILL');
});

function newMarker(): string {
  const marker = randomUUID();
  markers.push(marker);
  return marker;
}

describe.skipIf(!built || !reaper)('no process outlives hookwire (built CLI)', () => {
  it("the model's shell kills the spawn helper ($PPID): its env-cleared orphan is killed, the run goes on", async () => {
    const sandbox = await createSandbox();
    const marker = newMarker();
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c1', 'shell', { command: `${escapee(marker)}; kill -9 $PPID` }),
      callTool('c2', 'shell', { command: 'echo still-running' }),
      say('done'),
    ]);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json']),
      { main: BIN, env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    const results = jsonLines(outcome.stdout).filter((line) => line['type'] === 'tool-result');
    expect(results).toHaveLength(2);
    expect(JSON.stringify(results[1])).toContain('still-running');
    expect(await survivorsAfter(marker)).toEqual([]);
  });

  it("a process hook's env-cleared double-forked child does not survive the session", async () => {
    const sandbox = await createSandbox();
    const marker = newMarker();
    const started = join(sandbox.root, 'hook-started');
    // Answers every request with no opinion, after leaving the marker behind.
    const hook = `${escapee(marker)}; touch ${JSON.stringify(started)}; exec ${JSON.stringify(process.execPath)} -e ${JSON.stringify(
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => { const { id } = JSON.parse(line); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: null }) + '\\n'); });",
    )}`;
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'process', command: hook }] }] },
    });
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c1', 'shell', { command: 'echo guarded' }),
      say('done'),
    ]);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json']),
      { main: BIN, env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    expect(existsSync(started)).toBe(true);
    expect(JSON.stringify(jsonLines(outcome.stdout))).toContain('guarded');
    expect(await survivorsAfter(marker)).toEqual([]);
  });

  it("a stdio MCP server's env-cleared double-forked child does not survive the session", async () => {
    const sandbox = await createSandbox();
    const marker = newMarker();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: {
        notes: {
          command: process.execPath,
          args: [STDIO_SERVER, 'notes'],
          env: { HOOKWIRE_TEST_MCP_AT_START: escapee(marker) },
        },
      },
    });
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c1', 'mcp__notes__echo', { text: 'served' }),
      say('done'),
    ]);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json']),
      { main: BIN, env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    expect(JSON.stringify(jsonLines(outcome.stdout))).toContain('echo: served');
    expect(await survivorsAfter(marker)).toEqual([]);
  });
});
