/**
 * Durable sessions on the real restate-server (from npm, pinned, on loopback in its own mount
 * namespace): two `hookwire worker` processes behind one balancer, a loopback model answering
 * from the request, the session object `hookwire-session` driven through Restate's ingress and
 * `hookwire run --restate`. Skipped, saying why, where restate-server cannot run (not root).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDurableFixture, type DurableFixture } from '../support/durable-fixture.ts';
import { CLI, restateUnavailable } from '../support/restate-cluster.ts';

const unavailable = restateUnavailable();
if (unavailable !== undefined) console.warn(`durable-session tests skipped: ${unavailable}`);

/**
 * The project's hook, for every event below: appends `EVENT CALL_ID SESSION ACTIVE` to $HOOK_LOG
 * (ACTIVE: `active` when `stop_hook_active`), then denies every tool of a session whose id starts
 * with `denied`, and blocks the first Stop of a session whose id starts with `stopper`.
 */
const HOOK_SCRIPT = `import { appendFileSync, readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.env.HOOK_LOG, [p.hook_event_name, p.tool_call_id ?? '-', p.session_id, p.stop_hook_active === true ? 'active' : '-'].join(' ') + '\\n');
if (p.hook_event_name === 'PreToolUse' && p.session_id.startsWith('denied'))
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'durable-test: denied by policy' } }));
if (p.hook_event_name === 'Stop' && p.session_id.startsWith('stopper') && p.stop_hook_active !== true)
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'durable-test: check the work once more' }));
`;

/** The hook log's lines of session `id`, as [event, call id, active]. */
async function hookRuns(fixture: DurableFixture, id: string): Promise<string[][]> {
  return (await readFile(fixture.hookLog, 'utf8').catch(() => ''))
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => fields[2] === id)
    .map(([event = '', call = '', , active = '']) => [event, call, active]);
}

/**
 * What `hookwire hooks stats ID --json` and `hookwire trace ID` (run in the project, as a user
 * would) say of a durable session: hook runs per event, and trace's model calls and hook runs.
 */
async function readBack(
  fixture: DurableFixture,
  root: string,
  id: string,
): Promise<{ byEvent: Record<string, number>; modelCalls: number; hookRuns: number }> {
  const run = promisify(execFile);
  const stats = await run(process.execPath, [CLI, 'hooks', 'stats', id, '--json'], {
    cwd: fixture.project,
  });
  const report = JSON.parse(stats.stdout) as {
    sessions: string[];
    hooks: { event: string; runs: number }[];
  };
  expect(report.sessions).toEqual([id]);
  const byEvent: Record<string, number> = {};
  for (const hook of report.hooks) byEvent[hook.event] = (byEvent[hook.event] ?? 0) + hook.runs;
  const out = join(root, `${id}.trace.html`);
  const trace = await run(process.execPath, [CLI, 'trace', id, '--out', out], {
    cwd: fixture.project,
  });
  const counts = /: (\d+) model calls, (\d+) hook runs/.exec(trace.stdout);
  expect(counts, trace.stdout).not.toBeNull();
  expect(await readFile(out, 'utf8')).toContain(id);
  return { byEvent, modelCalls: Number(counts![1]), hookRuns: Number(counts![2]) };
}

/** Hook runs per event in the hook log of session `id`. */
function perEvent(runs: readonly string[][]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [event = ''] of runs) counts[event] = (counts[event] ?? 0) + 1;
  return counts;
}

describe.skipIf(unavailable !== undefined)('durable sessions on Restate', () => {
  let root: string;
  let fixture: DurableFixture;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookwire-restate-'));
    const script = join(root, 'log-hook.mjs');
    await writeFile(script, HOOK_SCRIPT);
    const hook = [{ hooks: [{ type: 'command', command: `node "${script}"` }] }];
    fixture = await startDurableFixture(root, {
      sleep: 0,
      settings: {
        hooks: { PreToolUse: hook, PostToolUse: hook, Stop: hook, Interrupt: hook },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await fixture.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('runs a turn through hookwire run --restate: the json result object, each call once, state()', async () => {
    // Asynchronously: the loopback model answers from this process.
    const outcome = await promisify(execFile)(process.execPath, [
      CLI,
      'run',
      'session basic steps 3',
      '--restate',
      fixture.restate.ingress,
      '--resume',
      'basic',
      '--output-format',
      'json',
    ]);
    expect(outcome.stderr).toBe('');
    const result = JSON.parse(outcome.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ sessionId: 'basic', status: 'completed', modelCalls: 4 });
    expect(String(result.result)).toContain('done basic after 3 calls, 0 interrupted');
    const lines = (await fixture.effectLines()).filter((line) => line.startsWith('basic '));
    expect(lines).toEqual(['basic call_1', 'basic call_2', 'basic call_3']);
    const hooks = await hookRuns(fixture, 'basic');
    expect(hooks.filter(([event]) => event === 'PostToolUse').map(([, call]) => call)).toEqual([
      'call_1',
      'call_2',
      'call_3',
    ]);
    expect(await fixture.call('basic', 'state')).toMatchObject({
      status: 'idle',
      turns: 1,
      messages: 8,
    });
  }, 60_000);

  it('a worker SIGKILLed during a shell call: the turn completes on the other, no call line twice, the call answered "interrupted"', async () => {
    const id = 'killed';
    const pending = fixture.call(id, 'run', { prompt: `session ${id} steps 3 slow` });
    // The kill lands while call_2's shell command runs (its line is written, the call not done).
    for (;;) {
      const lines = await fixture.effectLines();
      if (lines.includes(`${id} call_2`)) break;
      await new Promise((done) => setTimeout(done, 10));
    }
    const busy = fixture.balancer.busy();
    const victim = fixture.workers.find(
      (worker) => busy.includes(worker.port) && worker.process.exitCode === null,
    );
    expect(victim).toBeDefined();
    fixture.balancer.remove(victim!.port);
    await victim!.kill('SIGKILL');
    await fixture.addWorker();
    const result = (await pending) as Record<string, unknown>;
    expect(result.status).toBe('completed');
    // call_2 was interrupted (shell: report), so the model asked for it again as call_3.
    expect(String(result.result)).toContain(`done ${id} after 3 calls, 1 interrupted`);
    const lines = (await fixture.effectLines()).filter((line) => line.startsWith(`${id} `));
    expect(lines).toEqual([`${id} call_1`, `${id} call_2`, `${id} call_3`]);
    const logged = await hookRuns(fixture, id);
    const hooks = logged.filter(([event]) => event === 'PostToolUse').map(([, call]) => call);
    expect(new Set(hooks).size, hooks.join(' | ')).toBe(hooks.length);
    // The session's transcript, as trace and hooks stats read it, holds each hook run once: those
    // the killed worker ran (replayed from the journal) and those the other ran.
    const read = await readBack(fixture, root, id);
    expect(read.byEvent).toEqual(perEvent(logged));
    expect(read.modelCalls).toBe(result.modelCalls);
  }, 90_000);
  it('cancel() answers while the turn runs: the turn ends cancelled, Interrupt fires, no later call runs', async () => {
    const id = 'cancelme';
    const pending = fixture.call(id, 'run', { prompt: `session ${id} steps 3 slow` }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error: String(error) }),
    );
    for (;;) {
      if ((await fixture.effectLines()).includes(`${id} call_1`)) break;
      await new Promise((done) => setTimeout(done, 10));
    }
    expect(await fixture.call(id, 'state')).toMatchObject({ status: 'running', turns: 0 });
    expect(await fixture.call(id, 'cancel')).toEqual({ cancelled: true });
    const outcome = await pending;
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ value: { status: 'cancelled' } });
    // call_1 was running (its shell sleeps 2 s): nothing after it ran.
    const lines = (await fixture.effectLines()).filter((line) => line.startsWith(`${id} `));
    expect(lines).toEqual([`${id} call_1`]);
    const hooks = await hookRuns(fixture, id);
    expect(hooks.filter(([event]) => event === 'Interrupt')).toHaveLength(1);
    expect(hooks.filter(([event]) => event === 'PreToolUse').map(([, call]) => call)).toEqual([
      'call_1',
    ]);
    expect(await fixture.call(id, 'state')).toMatchObject({
      status: 'idle',
      last: { status: 'cancelled' },
    });
    // Nothing is running now: a second cancel says so.
    expect(await fixture.call(id, 'cancel')).toEqual({ cancelled: false });
  }, 60_000);

  it('a PreToolUse hook that denies: the tool never runs, the model gets the reason', async () => {
    const id = 'denied-1';
    const result = (await fixture.call(id, 'run', {
      prompt: `session ${id} steps 2`,
    })) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'completed', modelCalls: 3 });
    expect((await fixture.effectLines()).filter((line) => line.startsWith(`${id} `))).toEqual([]);
    // The model's final answer quotes the last message it was sent: the second denial.
    expect(String(result.result)).toContain('durable-test: denied by policy');
    const hooks = await hookRuns(fixture, id);
    expect(hooks.filter(([event]) => event === 'PreToolUse').map(([, call]) => call)).toEqual([
      'call_1',
      'call_2',
    ]);
  }, 60_000);

  it('a Stop hook that blocks once: the turn continues once with its reason, then ends', async () => {
    const id = 'stopper-1';
    const before = fixture.model.requests.length;
    const result = (await fixture.call(id, 'run', {
      prompt: `session ${id} steps 1`,
    })) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'completed', modelCalls: 3 });
    const stops = (await hookRuns(fixture, id)).filter(([event]) => event === 'Stop');
    expect(stops.map(([, , active]) => active)).toEqual(['-', 'active']);
    // The continuation reached the model as the last message of its third request.
    const requests = fixture.model.requests.slice(before).filter((request) => {
      const body = request.body as { messages?: { content?: unknown }[] };
      return JSON.stringify(body.messages?.[1]?.content ?? '').includes(id);
    });
    expect(requests).toHaveLength(3);
    const last = (
      requests[2]!.body as { messages: { role: string; content: unknown }[] }
    ).messages.at(-1);
    expect(JSON.stringify(last?.content)).toContain('durable-test: check the work once more');
    expect((await fixture.effectLines()).filter((line) => line.startsWith(`${id} `))).toEqual([
      `${id} call_1`,
    ]);
  }, 60_000);

  it('hookwire run --restate --resume ID continues an earlier durable session with its history', async () => {
    const run = promisify(execFile);
    const first = await run(process.execPath, [
      CLI,
      'run',
      'session resumed steps 1',
      '--restate',
      fixture.restate.ingress,
    ]);
    expect(first.stdout).toContain('done resumed after 1 calls');
    const id = /session (\S+) \(--resume \1\)/.exec(first.stderr)?.[1];
    expect(id, first.stderr).toBeDefined();
    const second = await run(process.execPath, [
      CLI,
      'run',
      'session resumed steps 2',
      '--restate',
      fixture.restate.ingress,
      '--resume',
      id!,
      '--output-format',
      'json',
    ]);
    const result = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ sessionId: id, status: 'completed', modelCalls: 3 });
    // The second turn's calls are numbered after the first turn's: its history reached the model.
    expect((await fixture.effectLines()).filter((line) => line.startsWith('resumed '))).toEqual([
      'resumed call_1',
      'resumed call_2',
      'resumed call_3',
    ]);
    const hooks = await hookRuns(fixture, id!);
    expect(hooks.filter(([event]) => event === 'PostToolUse').map(([, call]) => call)).toEqual([
      'call_1',
      'call_2',
      'call_3',
    ]);
    expect(await fixture.call(id!, 'state')).toMatchObject({ status: 'idle', turns: 2 });
    // Both turns in one transcript, as a resumed local session's.
    const read = await readBack(fixture, root, id!);
    expect(read.modelCalls).toBe(2 + 3);
    expect(read.byEvent).toEqual(perEvent(hooks));
    expect(read.hookRuns).toBe(hooks.length);
  }, 60_000);
});
