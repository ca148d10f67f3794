/**
 * Hook-kind costs (`npm run bench -- hook-kinds`), each figure beside its floor in the same run,
 * interleaved round by round, timing the built dist/ when it exists:
 * (a) a no-op `process` hook event through the group runner (payload encoded, JSON-RPC request
 *     written, answer matched by id, read as hook output, interpreted) vs a bare JSON-line round
 *     trip with a process running the same script (write one line, read one line): what hookwire
 *     adds per event, bound 100 µs;
 * (b) the same no-op hook as a `process` hook vs as a `command` hook (a process spawned per
 *     event) through the same group runner: bound 1/50;
 * (c) a no-op `http` hook through the group runner vs a bare `fetch` POSTing the same payload to
 *     the same loopback server and reading the body: bound 1.5×.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { load, timing } from './built.ts';
import { compare, record } from './harness.ts';
import type * as GroupModule from '../src/hook-kinds/group/run-hook-group.ts';
import type * as RunnerModule from '../src/supervision/index.ts';
import type * as KindModule from '../src/hook-kinds/hook-kind.ts';
import type * as ProcessModule from '../src/hook-kinds/process/index.ts';
import type * as HttpModule from '../src/hook-kinds/http/index.ts';
import type * as SettingsModule from '../src/hook-kinds/settings/index.ts';

const { runHookGroup } = await load<typeof GroupModule>('hook-kinds/group/run-hook-group');
const { createCommandRunner } = await load<typeof RunnerModule>('supervision/index');
const { HookKindStates } = await load<typeof KindModule>('hook-kinds/hook-kind');
const { createProcessHookRunner, processKind } = await load<typeof ProcessModule>(
  'hook-kinds/process/index',
);
const { createHttpHookRunner, httpKind } = await load<typeof HttpModule>('hook-kinds/http/index');
const { compileMatcher } = await load<typeof SettingsModule>('hook-kinds/settings/index');

type HookGroupConfig = SettingsModule.HookGroupConfig;

/** A no-op hook that answers JSON-RPC requests, or (with `once`) one payload on stdin. */
const NOOP_SCRIPT = `
import { createInterface } from 'node:readline';
if (process.argv[2] === 'once') {
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  for await (const line of createInterface({ input: process.stdin })) {
    const { id } = JSON.parse(line);
    process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":null}\\n');
  }
}
`;

const payload = {
  session_id: 'bench',
  transcript_path: '/tmp/transcript.jsonl',
  cwd: tmpdir(),
  hook_event_name: 'PreToolUse',
  timestamp: '2026-12-01T00:00:00.000Z',
  tool_name: 'shell',
  tool_input: { command: 'ls' },
  tool_call_id: 'call-1',
} as const;

const base = {
  timeoutMs: 10_000,
  failClosed: false,
  layer: 'extra',
  file: '/bench/settings.json',
  path: 'hooks.PreToolUse[0].hooks[0]',
  alsoDefinedIn: [],
} as const;

function groupOf(hooks: HookGroupConfig['hooks']): HookGroupConfig {
  return {
    event: 'PreToolUse',
    registeredAs: 'PreToolUse',
    matcher: compileMatcher(undefined, { file: base.file, path: 'hooks.PreToolUse[0]' }),
    matcherSource: '',
    sequential: false,
    hooks,
    layer: 'extra',
    file: base.file,
    path: 'hooks.PreToolUse[0]',
  };
}

/** A bare JSON-line client of one process: one request line out, one answer line back. */
function bareClient(command: string): { roundTrip(): Promise<void>; close(): void } {
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let waiting: (() => void) | undefined;
  lines.on('line', () => {
    const done = waiting;
    waiting = undefined;
    done?.();
  });
  let id = 0;
  const text = JSON.stringify(payload);
  return {
    roundTrip() {
      return new Promise<void>((resolve) => {
        waiting = resolve;
        child.stdin.write(`{"jsonrpc":"2.0","id":${++id},"method":"hook","params":${text}}\n`);
      });
    },
    close() {
      child.kill('SIGKILL');
    },
  };
}

export default async function hookKindsBenchmark(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'hookwire-kinds-bench-'));
  const script = join(directory, 'noop.mjs');
  await writeFile(script, NOOP_SCRIPT);
  const serve = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
  const runner = createCommandRunner();
  const processes = createProcessHookRunner();
  const http = createHttpHookRunner();
  const kinds = new HookKindStates().set(processKind, processes).set(httpKind, http);
  const options = { runner, projectDir: directory, sessionId: 'bench', kinds };
  const processGroup = groupOf([
    { ...base, type: 'process', name: 'noop', command: serve, start: 'first-use' },
  ]);
  const commandGroup = groupOf([
    { ...base, type: 'command', name: 'noop', command: `${serve} once` },
  ]);
  const bare = bareClient(serve);
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const httpGroup = groupOf([
    { ...base, type: 'http', name: 'noop', url, headers: {}, allowedEnvVars: [] },
  ]);
  const body = JSON.stringify(payload);
  console.log(`    ${timing()}`);

  try {
    const fireProcess = async () => {
      const run = await runHookGroup(processGroup, payload, options);
      if (run.outcomes[0]?.record.status !== 'ok') throw new Error('the process hook failed');
    };
    await fireProcess(); // starts the process
    const added = await compare(
      'process hook event (no-op) vs a bare JSON-line round trip with the same process',
      fireProcess,
      () => bare.roundTrip(),
      { rounds: 30, operationsPerSample: 200, warmupRounds: 3, unit: 'µs' },
    );
    // The bound is on what hookwire adds (100 µs), stated as the ratio it allows in this run.
    const addedMicros = added.candidate.median - added.baseline.median;
    record({
      ...added,
      name: `  … added per event: ${addedMicros.toFixed(1)} µs (bound 100 µs)`,
      limit: (added.baseline.median + 100) / added.baseline.median,
    });

    await compare(
      'process hook event (no-op) vs the same hook as a command hook',
      fireProcess,
      async () => {
        const run = await runHookGroup(commandGroup, payload, options);
        if (run.outcomes[0]?.record.status !== 'ok') throw new Error('the command hook failed');
      },
      { rounds: 12, operationsPerSample: 10, warmupRounds: 2, unit: 'µs', limit: 1 / 50 },
    );

    await compare(
      'http hook event (no-op) vs a bare fetch of the same loopback server',
      async () => {
        const run = await runHookGroup(httpGroup, payload, options);
        if (run.outcomes[0]?.record.status !== 'ok') throw new Error('the http hook failed');
      },
      async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          redirect: 'manual',
        });
        await response.text();
      },
      { rounds: 30, operationsPerSample: 50, warmupRounds: 3, unit: 'µs', limit: 1.5 },
    );
  } finally {
    bare.close();
    await processes.close();
    await runner.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(directory, { recursive: true, force: true });
  }
}
