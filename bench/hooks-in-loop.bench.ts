/**
 * Hook costs as users see them (`node bench/run.ts hooks-in-loop`, issue 29): inside the built
 * `hookwire run` (dist/bin/hookwire.js), on a scripted model making 40 `read_file` calls, each
 * hook kind's added cost per event is the gap between consecutive model requests with one no-op
 * PreToolUse hook minus the same gap with no hook.
 *
 * How a model request is timed: the run records every request it sends (`--record-requests`)
 * into a FIFO this process reads; each line's arrival is the request's time (the recorder writes
 * it synchronously just before the call). Every gap holds one tool step (one PreToolUse event), so
 * a run gives 40 gaps; the first 2 (JIT warm-up) are dropped and the run's figure is the median
 * of the rest. Runs are interleaved round by round (the order of the variants rotates), and each
 * kind's cost in a round is its run's median gap minus the no-hook run's of the same round; the
 * figure is the median over rounds.
 *
 * Each figure is printed beside its floor, measured in the same rounds:
 * - `process` (a Node script in the project, answering every request with `{}`, started with the
 *   session): a bare JSON-line round trip with a process running the same script (write one
 *   request line, read the answer line). Bounds: ≤ 0.1 ms per event, and ≤ 1/50 of the command
 *   hook's cost.
 * - `command` (`true`): a C program compiled here with `cc` that `posix_spawn`s `/bin/sh -c true`
 *   in its own session with the three pipes (payload written, output drained, waited for), timed
 *   per spawn by its own clock. Bound ≤ 1.5×.
 * - `http` (a loopback server in this process answering `{}`): a bare `fetch` POST of the same
 *   payload to the same server, body read. Bound ≤ 1.5×.
 *
 * The rows are a table (`KINDS`): a new kind (`ahp`, `module`) is one row — its settings entry,
 * its floor and its bounds. Side-by-side comparisons with another agent running the same no-op
 * hook (Claude Code on a loopback Anthropic mock) go in `SIDE_BY_SIDE`, measured in the same
 * rounds. `HOOKWIRE_BENCH_ROUNDS` sets the rounds (default 12); `HOOKWIRE_BENCH_BASE_CLI=PATH`
 * also times another build's `dist/bin/hookwire.js` in the same rounds, each kind's cost beside
 * this build's (how the figures in docs/decisions/0031 compare a change with main).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { record, type Measured } from './harness.ts';

const built = fileURLToPath(new URL('../dist/bin/hookwire.js', import.meta.url));
const TOOL_CALLS = 40;
const DROPPED_GAPS = 2;
const ROUNDS = Number(process.env['HOOKWIRE_BENCH_ROUNDS'] ?? 12);
/** Another build's CLI timed in the same rounds (e.g. main's, to show a change), when set. */
const baseCli = process.env['HOOKWIRE_BENCH_BASE_CLI'];
/** Floor samples per round, per floor. */
const FLOOR_SAMPLES = 20;

/** A no-op process hook: answers every JSON-RPC request with `{}`. */
const NOOP_PROCESS_SCRIPT = `
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const { id } = JSON.parse(line);
  process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":{}}\\n');
}
`;

/** What a PreToolUse payload of this run looks like (its size is what the floors send). */
function samplePayload(project: string): string {
  return JSON.stringify({
    session_id: '0f6b1c9e-2b1d-4d8e-9f57-3c1a2b4d5e6f',
    transcript_path: join(project, '.hookwire', 'sessions', '0f6b1c9e.jsonl'),
    cwd: project,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-12-02T10:00:00.000Z',
    permission_mode: 'default',
    tool_name: 'read_file',
    tool_input: { path: 'a.txt' },
    tool_call_id: 'call_7',
  });
}

/** The C spawn floor: per request line, spawns `/bin/sh -c CMD` in its own session and prints µs. */
const FLOOR_SOURCE = String.raw`
#define _GNU_SOURCE
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  const char *payload = argv[1]; size_t length = strlen(payload);
  char line[4096];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    double start = now();
    int in[2], out[2], err[2]; pipe(in); pipe(out); pipe(err);
    posix_spawn_file_actions_t fa; posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0); posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawn_file_actions_addclose(&fa, in[1]); posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, err[0]);
    posix_spawnattr_t at; posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
    char *args[] = { "/bin/sh", "-c", line, NULL }; pid_t pid;
    if (posix_spawn(&pid, "/bin/sh", &fa, &at, args, environ) != 0) return 2;
    posix_spawn_file_actions_destroy(&fa); posix_spawnattr_destroy(&at);
    close(in[0]); close(out[1]); close(err[1]);
    size_t done = 0; while (done < length) { ssize_t n = write(in[1], payload + done, length - done); if (n <= 0) break; done += (size_t)n; }
    close(in[1]);
    char buf[65536]; while (read(out[0], buf, sizeof buf) > 0) {} while (read(err[0], buf, sizeof buf) > 0) {}
    close(out[0]); close(err[0]); int status; waitpid(pid, &status, 0);
    printf("%.1f\n", now() - start); fflush(stdout);
  }
  return 0;
}
`;

/** A floor: one sample, in ms. */
interface Floor {
  readonly name: string;
  sample(): Promise<number>;
  close(): Promise<void>;
}

/** What every row and floor of one benchmark run shares. */
interface Bench {
  readonly root: string;
  readonly project: string;
  readonly payload: string;
  readonly processScript: string;
  readonly httpUrl: string;
}

/** One hook kind's row: its settings entry, its floor and its bounds. */
interface KindRow {
  /** The settings `type`. */
  readonly kind: string;
  /** What the no-op hook is, for the printout. */
  readonly what: string;
  /** The hook entry of `hooks.PreToolUse[0].hooks`. */
  hook(bench: Bench): Record<string, unknown>;
  /** The floor measured in the same rounds, or undefined when it cannot be (the reason printed). */
  floor(bench: Bench): Promise<Floor | string>;
  /** The bound on the figure's ratio to its floor. */
  readonly floorLimit?: number;
  /** A bound on the figure itself, ms per event. */
  readonly absoluteLimitMs?: number;
  /** A bound on the figure's ratio to another row's figure: [kind, limit]. */
  readonly relativeTo?: readonly [string, number];
}

/**
 * Another agent's cost for the same no-op hook, measured in the same rounds (Claude Code on a
 * loopback Anthropic mock is the one issue 29 names; its row is added where its binary is
 * installed). `perEventMs` runs the other agent once with and once without its hook, interleaved
 * by the caller, and resolves with its added ms per event; the figure is hookwire's cost for
 * `kind` against it, bound `limit` (issue 29: a no-op PreToolUse hook at most 1/3 of Claude
 * Code's).
 */
export interface SideBySideRow {
  readonly name: string;
  readonly kind: string;
  readonly limit: number;
  /** Undefined when the other agent is not installed here (the reason printed). */
  prepare(
    bench: Bench,
  ): Promise<{ perEventMs(): Promise<number>; close(): Promise<void> } | string>;
}

/** The side-by-side rows; Claude Code's is added by the branch that installs it. */
const SIDE_BY_SIDE: readonly SideBySideRow[] = [];

const KINDS: readonly KindRow[] = [
  {
    kind: 'command',
    what: 'no-op command hook (`true`)',
    hook: () => ({ type: 'command', command: 'true' }),
    floor: (bench) => cSpawnFloor(bench),
    floorLimit: 1.5,
  },
  {
    kind: 'process',
    what: 'no-op process hook (Node, answers {})',
    hook: (bench) => ({
      type: 'process',
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(bench.processScript)}`,
      start: 'session',
    }),
    floor: (bench) =>
      Promise.resolve(
        jsonLineFloor(
          `${JSON.stringify(process.execPath)} ${JSON.stringify(bench.processScript)}`,
          bench,
        ),
      ),
    absoluteLimitMs: 0.1,
    relativeTo: ['command', 1 / 50],
  },
  {
    kind: 'http',
    what: 'no-op http hook (loopback, answers {})',
    hook: (bench) => ({ type: 'http', url: bench.httpUrl }),
    floor: (bench) => Promise.resolve(httpFloor(bench)),
    floorLimit: 1.5,
  },
  {
    kind: 'ahp',
    what: 'no-op ahp intercept (persistent stdio backend, answers [])',
    hook: () => ({
      type: 'ahp',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [AHP_BACKEND, 'bench'],
        lifecycle: 'persistent',
      },
      failurePolicy: 'fail-open',
      timeout: '10s',
    }),
    floor: (bench) =>
      Promise.resolve(
        jsonLineFloor(
          `${JSON.stringify(process.execPath)} ${JSON.stringify(AHP_BACKEND)} bare`,
          bench,
          (id) => ahpRequest(bench, `evt_${id}`),
          'bare JSON-RPC hooks/intercept round trip with the same backend',
        ),
      ),
    // Issue 30: at most +50 µs over the bare round trip (printed as the ratio to the floor).
    absoluteLimitMs: 0.1,
  },
  {
    kind: 'module',
    what: 'no-op module hook (TypeScript AgentHook in the project)',
    hook: () => ({ type: 'module', path: './.hookwire/hooks/noop-module-hook.ts' }),
    floor: () =>
      Promise.resolve('in-process (a function call), no floor beside the bound of 0.1 ms'),
    absoluteLimitMs: 0.1,
  },
];

/** The scripted AHP backend of the ahp tests (answers `[]` with AHP_CASE=allow). */
const AHP_BACKEND = fileURLToPath(new URL('../test/fixtures/ahp/backend.mjs', import.meta.url));

/** The `hooks/intercept` request the `ahp` kind sends for this run's PreToolUse event. */
function ahpRequest(bench: Bench, id: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: {
      protocolVersion: '0.1',
      event: {
        id,
        source: 'urn:hookwire:harness',
        type: 'tool.before',
        time: '2026-12-02T10:00:00.000Z',
        session: { id: '0f6b1c9e-2b1d-4d8e-9f57-3c1a2b4d5e6f', cwd: bench.project },
        tool: {
          name: 'read_file',
          kind: 'read',
          input: { path: 'a.txt' },
          origin: 'native',
          callId: 'call_7',
        },
      },
      capabilities: { effects: ['deny'] },
    },
  });
}

/** A no-op `module` hook: an AgentHook whose tool-call handler lets every call run. */
const NOOP_MODULE_HOOK = `
export default {
  onToolCall(): { kind: 'run' } {
    return { kind: 'run' };
  },
};
`;

async function cSpawnFloor(bench: Bench): Promise<Floor | string> {
  if (spawnSync('cc', ['--version'], { stdio: 'ignore' }).status !== 0)
    return 'no C compiler (cc): the C spawn floor cannot be built';
  const source = join(bench.root, 'floor.c');
  const binary = join(bench.root, 'floor');
  await writeFile(source, FLOOR_SOURCE);
  const compiled = spawnSync('cc', ['-O2', '-o', binary, source], { encoding: 'utf8' });
  if (compiled.status !== 0) throw new Error(`cc failed on the C floor: ${compiled.stderr}`);
  const child: ChildProcessWithoutNullStreams = spawn(binary, [bench.payload], { stdio: 'pipe' });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    name: 'C posix_spawn of /bin/sh -c true, own session, three pipes',
    async sample() {
      child.stdin.write('true\n');
      const next = await lines.next();
      if (next.done === true) throw new Error('the C floor exited');
      return Number(next.value) / 1000;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    },
  };
}

/**
 * A bare JSON-line round trip with a process running `command`: one request line written (by
 * `request(id)`, default the process hook's JSON-RPC request with the payload), one line read.
 */
function jsonLineFloor(
  command: string,
  bench: Bench,
  request: (id: number) => string = (id) =>
    `{"jsonrpc":"2.0","id":${id},"method":"hook","params":${bench.payload}}`,
  name = 'bare JSON-line round trip with the same script',
): Floor {
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let waiting: (() => void) | undefined;
  lines.on('line', () => {
    const done = waiting;
    waiting = undefined;
    done?.();
  });
  let id = 0;
  return {
    name,
    async sample() {
      const start = performance.now();
      await new Promise<void>((resolve) => {
        waiting = resolve;
        child.stdin.write(`${request(++id)}\n`);
      });
      return performance.now() - start;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    },
  };
}

function httpFloor(bench: Bench): Floor {
  return {
    name: 'bare loopback fetch POST of the same payload, body read',
    async sample() {
      const start = performance.now();
      const response = await fetch(bench.httpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bench.payload,
      });
      await response.text();
      return performance.now() - start;
    },
    close: () => Promise.resolve(),
  };
}

/**
 * Reads the request records of one run from the FIFO (held open for reading and writing, so it
 * never reports an end) and timestamps each line as it arrives.
 */
function requestClock(fifo: string): { take(): number[]; close(): void } {
  const descriptor = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  const socket = new Socket({ fd: descriptor, readable: true, writable: false });
  let times: number[] = [];
  socket.on('data', (chunk: Buffer) => {
    const at = performance.now();
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1))
      times.push(at);
  });
  return {
    take() {
      const taken = times;
      times = [];
      return taken;
    },
    close() {
      socket.destroy();
    },
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function summarize(values: readonly number[]): Measured {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9), samples: sorted.length };
}

/** Runs `hookwire run` once with `settings`; resolves with the median gap between requests, ms. */
async function runOnce(
  bench: Bench,
  cli: string,
  settings: string,
  model: string,
  fifo: string,
  clock: { take(): number[] },
): Promise<number> {
  clock.take();
  const child = spawn(
    process.execPath,
    [
      cli,
      'run',
      'go',
      '--model',
      `scripted:${model}`,
      '--cwd',
      bench.project,
      '--settings',
      settings,
      '--no-dialects',
      '--quiet',
      '--max-model-calls',
      String(TOOL_CALLS + 5),
      '--record-requests',
      fifo,
    ],
    {
      env: {
        ...process.env,
        HOOKWIRE_HOME: join(bench.root, 'home'),
        HOOKWIRE_MANAGED_SETTINGS: join(bench.root, 'managed.json'),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  // The last line may still be in flight on the FIFO: give the reader its turn.
  await new Promise((resolve) => setImmediate(resolve));
  const times = clock.take();
  if (code !== 0 || times.length !== TOOL_CALLS + 1)
    throw new Error(
      `hookwire run exited ${String(code)} after ${times.length} model requests (want ${TOOL_CALLS + 1}):\n${stderr}`,
    );
  const gaps: number[] = [];
  for (let index = 1 + DROPPED_GAPS; index < times.length; index++)
    gaps.push((times[index] ?? 0) - (times[index - 1] ?? 0));
  return median(gaps);
}

function line(text: string): void {
  console.log(`    ${text}`);
}

export default async function hooksInLoopBench(): Promise<void> {
  if (!existsSync(built)) {
    console.log('    dist/bin/hookwire.js is not built: run npm run build first (skipped)');
    return;
  }
  line(`timing dist/bin/hookwire.js; ${ROUNDS} rounds of ${TOOL_CALLS} tool calls per variant`);
  line(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  const root = await mkdtemp(join(tmpdir(), 'hookwire-in-loop-bench-'));
  const project = join(root, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'a.txt'), 'a small file\n');
  // Inside the project, where hooks live: trust's check of the scripts a hook names is on the path.
  await mkdir(join(project, '.hookwire', 'hooks'), { recursive: true });
  const processScript = join(project, '.hookwire', 'hooks', 'noop-process-hook.mjs');
  await writeFile(processScript, NOOP_PROCESS_SCRIPT);
  await writeFile(join(project, '.hookwire', 'hooks', 'noop-module-hook.ts'), NOOP_MODULE_HOOK);
  // The ahp row's backend answers every intercept with [] and logs nothing.
  process.env['AHP_CASE'] = 'allow';
  process.env['AHP_LOG'] = '';
  const model = join(root, 'model.jsonl');
  const turns = Array.from({ length: TOOL_CALLS }, (_, index) =>
    JSON.stringify({
      blocks: [
        {
          type: 'tool_call',
          id: `call_${index}`,
          name: 'read_file',
          parameters: { path: 'a.txt' },
        },
      ],
      finishReason: 'tool_calls',
    }),
  );
  turns.push(JSON.stringify({ blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' }));
  await writeFile(model, `${turns.join('\n')}\n`);
  const fifo = join(root, 'requests.fifo');
  if (spawnSync('mkfifo', [fifo]).status !== 0) throw new Error('mkfifo failed');

  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const bench: Bench = {
    root,
    project,
    payload: samplePayload(project),
    processScript,
    httpUrl: `http://127.0.0.1:${port}/hook`,
  };

  const variants: { name: string; settings: string; cli: string }[] = [];
  const writeSettings = async (name: string, hooks: Record<string, unknown>[]) => {
    const file = join(root, `${name}.settings.json`);
    await writeFile(
      file,
      JSON.stringify(hooks.length === 0 ? {} : { hooks: { PreToolUse: [{ hooks }] } }),
    );
    variants.push({ name, settings: file, cli: built });
    if (baseCli !== undefined)
      variants.push({ name: `base:${name}`, settings: file, cli: baseCli });
  };
  await writeSettings('none', []);
  for (const row of KINDS) await writeSettings(row.kind, [row.hook(bench)]);

  const floors = new Map<string, Floor>();
  for (const row of KINDS) {
    const floor = await row.floor(bench);
    if (typeof floor === 'string') line(`${row.kind}: ${floor}`);
    else floors.set(row.kind, floor);
  }
  const sides = new Map<SideBySideRow, { perEventMs(): Promise<number>; close(): Promise<void> }>();
  for (const row of SIDE_BY_SIDE) {
    const prepared = await row.prepare(bench);
    if (typeof prepared === 'string') line(`${row.name}: ${prepared}`);
    else sides.set(row, prepared);
  }

  // A script changed in the last 2 s is hashed again before every event (trust's racy window,
  // named-files.ts); a user's hook script is older than that, so the rounds start after it.
  const moduleScript = join(project, '.hookwire', 'hooks', 'noop-module-hook.ts');
  const settledAt =
    Math.max((await stat(processScript)).ctimeMs, (await stat(moduleScript)).ctimeMs) + 2100;
  if (Date.now() < settledAt)
    await new Promise((resolve) => setTimeout(resolve, settledAt - Date.now()));
  const clock = requestClock(fifo);
  const costs = new Map<string, number[]>(KINDS.map((row) => [row.kind, []]));
  const bare: number[] = [];
  const baseCosts = new Map<string, number[]>(KINDS.map((row) => [row.kind, []]));
  const floorSamples = new Map<string, number[]>([...floors.keys()].map((kind) => [kind, []]));
  const sideSamples = new Map<SideBySideRow, number[]>([...sides.keys()].map((row) => [row, []]));
  try {
    // One unmeasured round warms the disk cache, the compile cache and the floors.
    for (const variant of variants)
      await runOnce(bench, variant.cli, variant.settings, model, fifo, clock);
    for (const floor of floors.values())
      for (let index = 0; index < 5; index++) await floor.sample();
    for (let round = 0; round < ROUNDS; round++) {
      const gaps = new Map<string, number>();
      // Rotate the order so no variant always runs first (or right after another).
      for (let index = 0; index < variants.length; index++) {
        const variant = variants[(round + index) % variants.length];
        if (variant === undefined) continue;
        gaps.set(
          variant.name,
          await runOnce(bench, variant.cli, variant.settings, model, fifo, clock),
        );
        const floor = floors.get(variant.name);
        if (floor !== undefined)
          for (let sample = 0; sample < FLOOR_SAMPLES; sample++)
            floorSamples.get(variant.name)?.push(await floor.sample());
      }
      const none = gaps.get('none') ?? Number.NaN;
      bare.push(none);
      for (const row of KINDS) costs.get(row.kind)?.push((gaps.get(row.kind) ?? Number.NaN) - none);
      const baseNone = gaps.get('base:none') ?? Number.NaN;
      if (baseCli !== undefined)
        for (const row of KINDS)
          baseCosts.get(row.kind)?.push((gaps.get(`base:${row.kind}`) ?? Number.NaN) - baseNone);
      for (const [row, side] of sides) sideSamples.get(row)?.push(await side.perEventMs());
    }
  } finally {
    clock.close();
    for (const floor of floors.values()) await floor.close();
    for (const side of sides.values()) await side.close();
    server.close();
    await rm(root, { recursive: true, force: true });
  }

  const noHook = summarize(bare);
  line(`no hook: a tool step's gap between model requests ${noHook.median.toFixed(3)} ms (median)`);
  const figures = new Map<string, Measured>();
  for (const row of KINDS) {
    const cost = summarize(costs.get(row.kind) ?? []);
    figures.set(row.kind, cost);
    const samples = floorSamples.get(row.kind);
    const floor = samples === undefined ? undefined : summarize(samples);
    const floorName = floors.get(row.kind)?.name;
    if (floor !== undefined && floorName !== undefined)
      record({
        name: `${row.kind}: ${row.what}, added per event in hookwire run vs ${floorName}`,
        candidate: cost,
        baseline: floor,
        ratio: cost.median / floor.median,
        unit: 'ms',
        ...(row.floorLimit === undefined ? {} : { limit: row.floorLimit }),
      });
    if (row.absoluteLimitMs !== undefined) {
      const bound: Measured = { median: row.absoluteLimitMs, p90: row.absoluteLimitMs, samples: 1 };
      record({
        name: `${row.kind}: added per event in hookwire run vs the bound of ${row.absoluteLimitMs} ms`,
        candidate: cost,
        baseline: bound,
        ratio: cost.median / row.absoluteLimitMs,
        unit: 'ms',
        limit: 1,
      });
    }
  }
  for (const row of KINDS) {
    if (row.relativeTo === undefined) continue;
    const [other, limit] = row.relativeTo;
    const cost = figures.get(row.kind);
    const otherCost = figures.get(other);
    if (cost === undefined || otherCost === undefined) continue;
    record({
      name: `${row.kind} hook vs ${other} hook, added per event in hookwire run`,
      candidate: cost,
      baseline: otherCost,
      ratio: cost.median / otherCost.median,
      unit: 'ms',
      limit,
    });
  }
  if (baseCli !== undefined)
    for (const row of KINDS) {
      const ours = figures.get(row.kind);
      if (ours === undefined) continue;
      const theirs = summarize(baseCosts.get(row.kind) ?? []);
      record({
        name: `${row.kind}: added per event in hookwire run, this build vs ${baseCli}`,
        candidate: ours,
        baseline: theirs,
        ratio: ours.median / theirs.median,
        unit: 'ms',
      });
    }
  for (const [row, samples] of sideSamples) {
    const ours = figures.get(row.kind);
    if (ours === undefined) continue;
    const theirs = summarize(samples);
    record({
      name: `${row.kind} no-op PreToolUse hook in hookwire run vs ${row.name}`,
      candidate: ours,
      baseline: theirs,
      ratio: ours.median / theirs.median,
      unit: 'ms',
      limit: row.limit,
    });
  }
}
