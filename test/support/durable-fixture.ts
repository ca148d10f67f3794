/**
 * The durable-session fixture shared by the Restate tests, the kill campaign and the bench: a
 * real restate-server, a loopback model that answers from the request (stateless, so any worker
 * may ask it), a project whose `shell` calls append one line per call to an effects file and
 * whose hooks log each run, and two `hookwire worker` processes behind one balancer.
 *
 * The model: a prompt `session S steps N` gets N tool-calling answers, one per request (the
 * number of tool results after the turn's prompt says which), each a `shell` call appending
 * `S call_K` to the effects file (K counts the session's calls), then a final answer naming how
 * many results of the turn said "interrupted" and quoting the last message it was sent.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import {
  Balancer,
  registerDeployment,
  startRestateServer,
  startWorker,
  type RestateServer,
  type Worker,
} from './restate-cluster.ts';

interface ChatMessage {
  readonly role: string;
  readonly content: unknown;
  readonly tool_call_id?: string;
}

/** A worker of the fixture, with its tag (`w1`, `w2`, …: its `HOOKWIRE_TEST_WORKER`). */
export interface DurableWorker extends Worker {
  readonly tag: string;
}

export interface DurableFixture {
  readonly restate: RestateServer;
  readonly model: LoopbackServer;
  readonly balancer: Balancer;
  readonly workers: DurableWorker[];
  readonly project: string;
  readonly effects: string;
  readonly hookLog: string;
  /** Starts one more worker behind the balancer. */
  addWorker(): Promise<DurableWorker>;
  /** Calls a handler of session `id` through the ingress; the parsed answer. */
  call(id: string, handler: string, body?: unknown): Promise<unknown>;
  effectLines(): Promise<string[]>;
  stop(): Promise<void>;
}

function text(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}

function answer(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-durable',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** Options of `startDurableFixture`. */
export interface DurableFixtureOptions {
  /** The project's settings file contents (hooks, recovery, passEnvironment). */
  readonly settings?: unknown;
  /** Seconds each shell call sleeps after appending its line (a window to kill it in). */
  readonly sleep?: number;
  /** Workers started at once (default 2). */
  readonly workers?: number;
  /**
   * Each shell call also appends `tool CALL SESSION WORKER_TAG` to the hook log (the settings
   * must pass `HOOKWIRE_TEST_WORKER` through `passEnvironment`), so the log orders tool calls
   * and hook runs of each worker.
   */
  readonly toolLog?: boolean;
}

/** Starts the fixture in `root`. */
export async function startDurableFixture(
  root: string,
  options: DurableFixtureOptions = {},
): Promise<DurableFixture> {
  const project = join(root, 'project');
  const effects = join(root, 'effects.txt');
  const hookLog = join(root, 'hooks.jsonl');
  await mkdir(join(project, '.hookwire'), { recursive: true });
  await writeFile(effects, '');
  if (options.settings !== undefined)
    await writeFile(
      join(project, '.hookwire', 'settings.json'),
      JSON.stringify(options.settings, null, 2),
    );
  const sleep = options.sleep ?? 0;
  const model = await startLoopbackServer();
  model.replyWith((request) => {
    const body = request.body as { messages: readonly ChatMessage[] };
    // The turn's prompt: the last user message naming a session (a Stop hook's continuation
    // adds a user message that does not); its steps count the tool results after it.
    const turnStart = body.messages.findLastIndex(
      (message) => message.role === 'user' && /session \S+ steps \d+/.test(text(message.content)),
    );
    const prompt = text(body.messages[turnStart]?.content);
    const match = /session (\S+) steps (\d+)/.exec(prompt);
    const all = body.messages.filter((message) => message.role === 'tool');
    const results = body.messages.slice(turnStart + 1).filter((message) => message.role === 'tool');
    const session = match?.[1] ?? 'unknown';
    const steps = Number(match?.[2] ?? 0);
    if (results.length < steps) {
      // Numbered across the session's turns, so each call of a session has its own id.
      const call = `call_${all.length + 1}`;
      return {
        type: 'json',
        body: answer(
          {
            content: null,
            tool_calls: [
              {
                id: call,
                type: 'function',
                function: {
                  name: 'shell',
                  arguments: JSON.stringify({
                    command: `echo "${session} ${call}" >> "${effects}"${options.toolLog === true ? ` && echo "tool ${call} ${session} $HOOKWIRE_TEST_WORKER" >> "${hookLog}"` : ''}${prompt.includes(' slow') ? '; sleep 2' : sleep > 0 ? `; sleep ${sleep}` : ''}`,
                  }),
                },
              },
            ],
          },
          'tool_calls',
        ),
      };
    }
    const interrupted = results.filter((message) =>
      text(message.content).includes('interrupted'),
    ).length;
    const last = text(body.messages.at(-1)?.content);
    return {
      type: 'json',
      body: answer(
        {
          content: `done ${session} after ${results.length} calls, ${interrupted} interrupted; last: ${last.slice(0, 200)}`,
        },
        'stop',
      ),
    };
  });
  const restate = await startRestateServer(join(root, 'restate'));
  const balancer = new Balancer();
  const endpoint = await balancer.listen();
  const env = {
    ...process.env,
    HOOKWIRE_HOME: join(root, 'home'),
    HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed.json'),
    HOOKWIRE_TRUST_PROJECT: '1',
    OPENAI_API_KEY: 'test-key',
    HOOK_LOG: hookLog,
  };
  const baseArgs = [
    '--model',
    'openai:gpt-test',
    '--base-url',
    model.baseURL,
    '--cwd',
    project,
    '--endpoint-url',
    endpoint,
  ];
  const workers: DurableWorker[] = [];
  let started = 0;
  const addWorker = async (): Promise<DurableWorker> => {
    // A worker registers the balancer's URL through the balancer, so one must serve behind it
    // first: the first worker is added, then registered by the next one's --restate-admin.
    const registering = workers.some((worker) => worker.process.exitCode === null);
    const tag = `w${++started}`;
    const worker = Object.assign(
      await startWorker(registering ? [...baseArgs, '--restate-admin', restate.admin] : baseArgs, {
        ...env,
        HOOKWIRE_TEST_WORKER: tag,
      }),
      { tag },
    );
    balancer.add(worker.port);
    workers.push(worker);
    return worker;
  };
  const count = options.workers ?? 2;
  for (let index = 0; index < count; index++) await addWorker();
  if (count === 1) {
    await registerDeployment(restate.admin, endpoint);
  }
  return {
    restate,
    model,
    balancer,
    workers,
    project,
    effects,
    hookLog,
    addWorker,
    async call(id, handler, body) {
      const response = await fetch(
        `${restate.ingress}/hookwire-session/${encodeURIComponent(id)}/${handler}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      );
      const answered = await response.text();
      if (!response.ok) throw new Error(`${handler} failed: ${response.status} ${answered}`);
      return answered === '' ? null : (JSON.parse(answered) as unknown);
    },
    async effectLines() {
      return (await readFile(effects, 'utf8')).split('\n').filter((line) => line !== '');
    },
    async stop() {
      for (const worker of workers) await worker.kill();
      await balancer.close();
      await restate.stop();
      await model.close();
    },
  };
}
