/**
 * Durable sessions on the real restate-server (from npm, pinned, on loopback in its own mount
 * namespace): two `hookwire worker` processes behind one balancer, a loopback model answering
 * from the request, the session object `hookwire-session` driven through Restate's ingress and
 * `hookwire run --restate`. Skipped, saying why, where restate-server cannot run (not root).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDurableFixture, type DurableFixture } from '../support/durable-fixture.ts';
import { CLI, restateUnavailable } from '../support/restate-cluster.ts';

const unavailable = restateUnavailable();
if (unavailable !== undefined) console.warn(`durable-session tests skipped: ${unavailable}`);

/** A hook that appends `EVENT tool_use_id` to $HOOK_LOG, one line per run. */
const LOG_HOOK = `node -e "const p=JSON.parse(require('fs').readFileSync(0,'utf8'));require('fs').appendFileSync(process.env.HOOK_LOG, p.hook_event_name+' '+(p.tool_use_id??JSON.stringify(p.tool_input??''))+' '+(p.session_id??'')+'\\\\n')"`;

describe.skipIf(unavailable !== undefined)('durable sessions on Restate', () => {
  let root: string;
  let fixture: DurableFixture;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookwire-restate-'));
    fixture = await startDurableFixture(root, {
      sleep: 0,
      settings: {
        hooks: {
          PostToolUse: [{ hooks: [{ type: 'command', command: LOG_HOOK }] }],
          Stop: [{ hooks: [{ type: 'command', command: LOG_HOOK }] }],
        },
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
    const hooks = (await readFile(fixture.hookLog, 'utf8'))
      .split('\n')
      .filter((line) => line.endsWith(' basic'));
    expect(hooks.filter((line) => line.startsWith('PostToolUse'))).toHaveLength(3);
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
    const hooks = (await readFile(fixture.hookLog, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('PostToolUse ') && line.endsWith(` ${id}`));
    expect(new Set(hooks).size, hooks.join(' | ')).toBe(hooks.length);
  }, 90_000);
});
