/**
 * The `ahp` hook kind's cost over the transport itself, from the built `dist/`:
 *
 * (a) a no-op `ahp` intercept (persistent stdio backend answering `[]`) through the group runner
 *     — request built, one line out, response validated, outcome interpreted — vs a bare
 *     JSON-RPC round trip (the same request line out, one line back) to another instance of the
 *     same backend program. Bound: +50 µs (issue 30), printed as the difference of the medians.
 * (b) a no-op `ahp` intercept over loopback HTTP vs a bare `fetch` POST of the same body. Bound:
 *     1.2x.
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import type * as GroupModule from '../src/hook-kinds/group/run-hook-group.ts';
import type * as RunnerModule from '../src/supervision/index.ts';
import type * as KindModule from '../src/hook-kinds/hook-kind.ts';
import type * as AhpModule from '../src/hook-kinds/ahp/ahp-kind.ts';
import type * as SettingsModule from '../src/hook-kinds/settings/index.ts';

const { runHookGroup } = await load<typeof GroupModule>('hook-kinds/group/run-hook-group');
const { createCommandRunner } = await load<typeof RunnerModule>('supervision/index');
const { HookKindStates } = await load<typeof KindModule>('hook-kinds/hook-kind');
const { ahpKind, AhpSession } = await load<typeof AhpModule>('hook-kinds/ahp/ahp-kind');
const { compileMatcher } = await load<typeof SettingsModule>('hook-kinds/settings/index');

const BACKEND = fileURLToPath(new URL('../test/fixtures/ahp/backend.mjs', import.meta.url));

const payload = {
  session_id: 'bench',
  transcript_path: '/tmp/transcript.jsonl',
  cwd: tmpdir(),
  hook_event_name: 'PreToolUse',
  tool_name: 'shell',
  tool_input: { command: 'ls' },
  tool_call_id: 'call-1',
} as const;

function groupOf(hooks: SettingsModule.HookGroupConfig['hooks']): SettingsModule.HookGroupConfig {
  return {
    event: 'PreToolUse',
    registeredAs: 'PreToolUse',
    matcher: compileMatcher(undefined, { file: '/bench', path: 'hooks.PreToolUse[0]' }),
    matcherSource: '',
    sequential: false,
    hooks,
    layer: 'extra',
    file: '/bench/settings.json',
    path: 'hooks.PreToolUse[0]',
  };
}

const entry = {
  type: 'ahp',
  name: 'noop',
  failurePolicy: 'fail-open',
  protocolVersion: '0.1',
  includeNative: false,
  timeoutMs: 10_000,
  failClosed: false,
  layer: 'extra',
  file: '/bench/settings.json',
  path: 'hooks.PreToolUse[0].hooks[0]',
  alsoDefinedIn: [],
} as const;

/** The request line the kind sends, for the baselines (a fixed id, as a bare client would). */
const REQUEST = JSON.stringify({
  jsonrpc: '2.0',
  id: 'evt_bench',
  method: 'hooks/intercept',
  params: {
    protocolVersion: '0.1',
    event: {
      id: 'evt_bench',
      source: 'urn:hookwire:harness',
      type: 'tool.before',
      time: '2026-12-02T00:00:00.000Z',
      session: { id: 'bench', cwd: tmpdir(), workspaceRoots: [tmpdir()] },
      tool: {
        name: 'shell',
        kind: 'shell',
        input: { command: 'ls' },
        origin: 'native',
        callId: 'call-1',
      },
    },
    capabilities: { effects: ['deny'] },
  },
});

function bareClient(): { roundTrip(): Promise<void>; close(): void } {
  const child = spawn(process.execPath, [BACKEND, 'bare'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, AHP_CASE: 'allow', AHP_LOG: '' },
  });
  const lines = createInterface({ input: child.stdout });
  let waiting: (() => void) | undefined;
  lines.on('line', () => {
    const done = waiting;
    waiting = undefined;
    done?.();
  });
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        waiting = resolve;
        child.stdin.write(`${REQUEST}\n`);
      }),
    close: () => child.kill('SIGKILL'),
  };
}

/**
 * 600 interleaved samples a side (after 100 unmeasured rounds), each the mean of 4 exchanges:
 * with 30 samples the medians of two runs differed by more than the bound itself.
 */
const SAMPLING = { rounds: 600, operationsPerSample: 4, warmupRounds: 100 } as const;

export default async function ahpBenchmark(): Promise<void> {
  process.env['AHP_CASE'] = 'allow';
  process.env['AHP_LOG'] = '';
  const runner = createCommandRunner();
  const session = new AhpSession();
  const kinds = new HookKindStates().set(ahpKind, session);
  const options = { runner, projectDir: tmpdir(), sessionId: 'bench', kinds };
  const stdioGroup = groupOf([
    {
      ...entry,
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [BACKEND, 'noop'],
        lifecycle: 'persistent',
      },
    },
  ]);
  const bare = bareClient();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '0.1', effects: [] } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ahp`;
  const httpGroup = groupOf([{ ...entry, transport: { type: 'http', url } }]);
  console.log(`    ${timing()}`);
  try {
    const stdio = await compare(
      'ahp intercept, persistent stdio (no-op backend) vs bare JSON-RPC round trip',
      () => runHookGroup(stdioGroup, payload, options),
      () => bare.roundTrip(),
      SAMPLING,
    );
    const added = stdio.candidate.median - stdio.baseline.median;
    console.log(
      `    added per intercept: ${added.toFixed(1)} µs (bound +50 µs: ${added <= 50 ? 'within' : 'OVER'})`,
    );
    // The same pair on this process's CPU time: what hookwire itself spends per intercept, which
    // a loaded machine disturbs far less than the wall-clock medians (no bound: a diagnostic).
    const cpu = await compare(
      'the same, CPU time of this process per exchange (diagnostic, no bound)',
      () => runHookGroup(stdioGroup, payload, options),
      () => bare.roundTrip(),
      { ...SAMPLING, clock: 'cpu' },
    );
    console.log(
      `    CPU added per intercept: ${(cpu.candidate.median - cpu.baseline.median).toFixed(1)} µs`,
    );
    await compare(
      'ahp intercept, loopback HTTP vs bare fetch POST of the same body',
      () => runHookGroup(httpGroup, payload, options),
      async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: REQUEST,
        });
        await response.text();
      },
      { ...SAMPLING, limit: 1.2 },
    );
    // The kind posts through node:http on a keep-alive agent, which is cheaper than fetch: the
    // same candidate against the cheapest bare client of that transport too.
    const agent = new Agent({ keepAlive: true });
    await compare(
      'ahp intercept, loopback HTTP vs bare node:http POST (keep-alive agent) of the same body',
      () => runHookGroup(httpGroup, payload, options),
      () =>
        new Promise<void>((resolve, reject) => {
          const outgoing = request(
            url,
            {
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(REQUEST),
              },
            },
            (response) => {
              response.resume();
              response.on('end', resolve);
            },
          );
          outgoing.on('error', reject);
          outgoing.end(REQUEST);
        }),
      { ...SAMPLING, limit: 1.2 },
    );
    agent.destroy();
  } finally {
    bare.close();
    await session.close();
    await runner.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
