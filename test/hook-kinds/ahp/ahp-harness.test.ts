/**
 * hookwire as an AHP harness (the `ahp` kind), tested against scripted backends: a real stdio
 * process (test/fixtures/ahp/backend.mjs, persistent and per_event) and a loopback HTTP server,
 * both answering per case (test/fixtures/ahp/script.mjs) and recording what they receive. Each
 * test is named after the AHP requirement it proves; emitted requests are validated against the
 * JSON Schemas under schemas/ahp/.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ahpKind,
  AhpSession,
  FAIL_CLOSED_REASON,
  type AhpHookConfig,
} from '../../../src/hook-kinds/ahp/ahp-kind.ts';
import type { AhpTransport } from '../../../src/hook-kinds/ahp/ahp-transports.ts';
import { runHookGroup } from '../../../src/hook-kinds/group/index.ts';
import { HookKindStates } from '../../../src/hook-kinds/hook-kind.ts';
import { readSettingsText } from '../../../src/hook-kinds/settings/parse-settings-text.ts';
import { createCommandRunner, type CommandRunner } from '../../../src/supervision/index.ts';
import { groupOf } from '../support.ts';
import { answerFor, caseOf } from '../../fixtures/ahp/script.mjs';

const BACKEND = fileURLToPath(new URL('../../fixtures/ahp/backend.mjs', import.meta.url));
const SCHEMAS = fileURLToPath(new URL('../../../schemas/ahp/', import.meta.url));

async function validator(name: string) {
  // `not: {required: ["id"]}` (a notification has no id) is what strictRequired refuses.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addFormat('uri', (value: string) => /^[a-z][a-z0-9+.-]*:/i.test(value));
  return ajv.compile(JSON.parse(await readFile(join(SCHEMAS, name), 'utf8')) as object);
}

interface LogEntry {
  readonly name: string;
  /** The HTTP backend's: the request's Authorization header. */
  readonly authorization?: string;
  readonly pid: number;
  readonly t: number;
  readonly at: 'start' | 'recv' | 'send' | 'bad';
  readonly request?: {
    readonly id?: string;
    readonly method: string;
    readonly params: { readonly event: Record<string, unknown> & { id: string } };
  };
  readonly id?: string;
}

let directory: string;
let logPath: string;
let runner: CommandRunner;
let session: AhpSession;
let server: Server;
let httpUrl: string;
const httpLog: LogEntry[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LogEntry['request'] & {
        id?: string;
      };
      const authorization = request.headers.authorization;
      httpLog.push({
        name: 'http',
        pid: 0,
        t: Date.now(),
        at: 'recv',
        request: message,
        ...(authorization === undefined ? {} : { authorization }),
      });
      // `?auth`: a backend that requires the bearer token `s3cret-token`.
      if (request.url?.endsWith('?auth') === true && authorization !== 'Bearer s3cret-token') {
        response
          .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
          .end(
            JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no' } }),
          );
        return;
      }
      if (message.id === undefined) {
        response.writeHead(204).end();
        return;
      }
      const answer = answerFor(message, caseOf(message, 'http'));
      if (answer === null) return; // hang
      if (answer.crash === true) {
        request.socket.destroy();
        return;
      }
      const send = (): void => {
        if (answer.status === 302)
          response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        else
          response
            .writeHead(answer.status ?? 200, { 'content-type': 'application/json' })
            .end(answer.text);
      };
      if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  httpUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/ahp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'hookwire-ahp-'));
  logPath = join(directory, 'backend.log');
  await writeFile(logPath, '');
  runner = createCommandRunner({ mode: 'direct' });
  session = new AhpSession();
  httpLog.length = 0;
});
afterEach(async () => {
  await session.close();
  await runner.close();
  await rm(directory, { recursive: true, force: true });
});

async function backendLog(): Promise<LogEntry[]> {
  const text = await readFile(logPath, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

const stdio = (lifecycle: 'persistent' | 'per_event', name = 'backend'): AhpTransport => ({
  type: 'stdio',
  command: process.execPath,
  args: [BACKEND, name],
  lifecycle,
});

function ahp(
  transport: AhpTransport,
  fields: Partial<Omit<AhpHookConfig, 'type' | 'transport'>> = {},
): AhpHookConfig {
  return {
    type: 'ahp',
    name: 'policy',
    transport,
    failurePolicy: 'fail-open',
    protocolVersion: '0.1',
    includeNative: false,
    timeoutMs: 2000,
    failClosed: false,
    layer: 'extra',
    file: '/test/settings.json',
    path: 'hooks.PreToolUse[0].hooks[0]',
    alsoDefinedIn: [],
    ...fields,
    ...(fields.failurePolicy === 'fail-closed' ? { failClosed: true } : {}),
  };
}

function payload(input: Record<string, unknown>, callId = 'call_1'): Record<string, unknown> {
  return {
    session_id: 'sess_1',
    transcript_path: join(tmpdir(), 't.jsonl'),
    cwd: '/repo',
    hook_event_name: 'PreToolUse',
    tool_name: 'shell',
    tool_input: input,
    tool_call_id: callId,
  };
}

async function fire(
  hooks: readonly AhpHookConfig[],
  input: Record<string, unknown>,
  event: 'PreToolUse' | 'PostToolUse' = 'PreToolUse',
  callId = 'call_1',
) {
  return runHookGroup(
    groupOf(event, hooks),
    { ...payload(input, callId), hook_event_name: event },
    {
      runner,
      projectDir: directory,
      sessionId: 'sess_1',
      kinds: new HookKindStates().set(ahpKind, session),
    },
  );
}

const TRANSPORTS = {
  'stdio persistent': () => stdio('persistent'),
  'stdio per_event': () => stdio('per_event'),
  http: (): AhpTransport => ({ type: 'http', url: httpUrl }),
} as const;

async function received(kind: keyof typeof TRANSPORTS): Promise<LogEntry[]> {
  const entries = kind === 'http' ? httpLog : await backendLog();
  return entries.filter((entry) => entry.at === 'recv');
}

for (const [kind, transport] of Object.entries(TRANSPORTS) as [
  keyof typeof TRANSPORTS,
  () => AhpTransport,
][]) {
  const env = { AHP_LOG: '' };
  describe(`ahp harness over ${kind}`, () => {
    beforeEach(() => {
      env.AHP_LOG = logPath;
      process.env['AHP_LOG'] = logPath;
    });

    it('AHP-RPC-001 AHP-TB-001 AHP-CAP-001: the request validates against the schema, its id is the event id, input is an object', async () => {
      const validate = await validator('intercept-request-0.1.schema.json');
      const run = await fire([ahp(transport())], { case: 'allow', command: 'git status' });
      expect(run.combined.denied).toBe(false);
      const [entry] = await received(kind);
      const request = entry?.request;
      expect(validate(request), JSON.stringify(validate.errors)).toBe(true);
      expect(request?.id).toBe(request?.params.event.id);
      expect(request?.params.event['tool']).toMatchObject({
        name: 'shell',
        kind: 'shell',
        origin: 'native',
        callId: 'call_1',
        input: { case: 'allow', command: 'git status' },
      });
      // `native` only when includeNative.
      expect(request?.params.event['native']).toBeUndefined();
    });

    it('AHP-CORE-004: the same delivery keeps its event id; another call gets another', async () => {
      await fire([ahp(transport())], { case: 'allow' }, 'PreToolUse', 'call_1');
      await fire([ahp(transport())], { case: 'allow' }, 'PreToolUse', 'call_1');
      await fire([ahp(transport())], { case: 'allow' }, 'PreToolUse', 'call_2');
      const ids = (await received(kind)).map((entry) => entry.request?.id);
      expect(ids[0]).toBe(ids[1]);
      expect(ids[2]).not.toBe(ids[0]);
    });

    it('AHP-DEC-002: a deny denies with the backend reason', async () => {
      const run = await fire([ahp(transport())], { case: 'deny' });
      expect(run.combined.denied).toBe(true);
      expect(run.combined.denyReasons).toEqual(['blocked by policy']);
      expect(run.outcomes[0]?.record.status).toBe('blocked');
    });

    it('AHP-DEC-003: empty effects are no opinion, not a grant', async () => {
      const run = await fire([ahp(transport())], { case: 'allow' });
      expect(run.combined.denied).toBe(false);
      expect(run.outcomes[0]?.output).toBeUndefined();
      expect(run.outcomes[0]?.record.status).toBe('ok');
    });

    const classes: readonly (readonly [string, string])[] = [
      ['timeout', 'hang'],
      ['malformed', 'garbage'],
      ['id-mismatch', 'mismatch'],
      ['rpc-error', 'rpc-error'],
      ['unadvertised-effect', 'unadvertised'],
      ['malformed', 'two-denies'],
      ['version', 'wrong-version'],
      ...(kind === 'http'
        ? ([
            ['http-status', 'http-500'],
            ['http-redirect', 'http-302'],
            ['transport', 'crash'],
          ] as const)
        : ([
            ['crash', 'crash'],
            [
              kind === 'stdio per_event' ? 'exit' : 'malformed',
              kind === 'stdio per_event' ? 'exit' : 'banner',
            ],
          ] as const)),
    ];
    for (const [failure, kase] of classes) {
      it(`AHP-FAIL-001: ${failure} (${kase}) fails open with a warning and fails closed with a synthetic denial`, async () => {
        // A node backend takes a while to start on a loaded machine: only `hang` should time out.
        const timeoutMs = kase === 'hang' ? 600 : 5000;
        const open = await fire([ahp(transport(), { timeoutMs })], { case: kase });
        expect(open.combined.denied).toBe(false);
        expect(open.outcomes[0]?.warning).toContain(`(${failure})`);
        const closed = await fire([ahp(transport(), { timeoutMs, failurePolicy: 'fail-closed' })], {
          case: kase,
        });
        expect(closed.combined.denied).toBe(true);
        // The model sees the generic reason; the record says it was synthetic, and why.
        expect(closed.combined.denyReasons).toEqual([FAIL_CLOSED_REASON]);
        expect(closed.outcomes[0]?.record.status).toBe('failed-closed');
        expect(closed.outcomes[0]?.record.detail).toContain(`synthetic denial (${failure}:`);
        expect(JSON.stringify(closed.combined)).not.toContain('10.0.0.7');
      });
    }

    it('AHP-FAIL-002: the deadline is enforced and a late answer is ignored', async () => {
      const late = await fire(
        [ahp(transport(), { timeoutMs: 300, failurePolicy: 'fail-closed' })],
        { case: 'slow-deny:1200' },
      );
      expect(late.outcomes[0]?.record.detail).toContain('timeout');
      // The late deny never counts for the next event: it is answered by its own response.
      const next = await fire([ahp(transport())], { case: 'allow' }, 'PreToolUse', 'call_9');
      expect(next.combined.denied).toBe(false);
      expect(next.outcomes[0]?.record.status).toBe('ok');
    });

    it('AHP-COMP-001: several backends run serially in order, with no overlap, and a deny short-circuits', async () => {
      const first =
        kind === 'http'
          ? transport()
          : { ...stdio(kind === 'stdio per_event' ? 'per_event' : 'persistent', 'first') };
      const second =
        kind === 'http'
          ? ({ type: 'http', url: `${httpUrl}?second` } as const)
          : stdio(kind === 'stdio per_event' ? 'per_event' : 'persistent', 'second');
      const third =
        kind === 'http'
          ? ({ type: 'http', url: `${httpUrl}?third` } as const)
          : stdio(kind === 'stdio per_event' ? 'per_event' : 'persistent', 'third');
      const run = await fire(
        [
          ahp(first, { name: 'first' }),
          ahp(second, { name: 'second' }),
          ahp(third, { name: 'third' }),
        ],
        { case: 'slow-allow:150', case_second: 'deny', case_http: 'slow-allow:150' },
      );
      expect(run.combined.denied).toBe(kind !== 'http');
      if (kind === 'http') {
        // One server plays all three: each request starts after the previous answer.
        const times = httpLog.filter((entry) => entry.at === 'recv').map((entry) => entry.t);
        expect(times).toHaveLength(3);
        expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
        expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
        return;
      }
      const log = (await backendLog()).filter(
        (entry) => entry.at === 'recv' || entry.at === 'send',
      );
      expect(log.map((entry) => `${entry.at} ${entry.name}`)).toEqual([
        'recv first',
        'send first',
        'recv second',
        'send second',
      ]);
      expect(run.outcomes.map((outcome) => outcome.hook.name)).toEqual(['first', 'second']);
    });
  });
}

describe('ahp harness over HTTP with bearer authentication', () => {
  const VARIABLE = 'HOOKWIRE_TEST_AHP_TOKEN';
  afterEach(() => {
    delete process.env['HOOKWIRE_TEST_AHP_TOKEN'];
  });
  const guarded = (failurePolicy: 'fail-open' | 'fail-closed') =>
    ahp(
      { type: 'http', url: `${httpUrl}?auth` },
      { failurePolicy, authentication: { type: 'bearer', tokenEnv: VARIABLE } },
    );

  it('sends the token of tokenEnv as Authorization: Bearer, and the backend answers', async () => {
    process.env[VARIABLE] = 's3cret-token';
    const run = await fire([guarded('fail-closed')], { case: 'deny' });
    expect(run.combined.denyReasons).toEqual(['blocked by policy']);
    expect(run.outcomes[0]?.record.status).toBe('blocked');
    expect(httpLog.map((entry) => entry.authorization)).toEqual(['Bearer s3cret-token']);
  });

  it('a refused token (401) is an auth failure under the failure policy', async () => {
    process.env[VARIABLE] = 'wrong-token';
    const closed = await fire([guarded('fail-closed')], { case: 'allow' });
    expect(closed.combined.denyReasons).toEqual([FAIL_CLOSED_REASON]);
    expect(closed.outcomes[0]?.record.status).toBe('failed-closed');
    expect(closed.outcomes[0]?.record.detail).toContain('auth: answered HTTP 401');
    expect(closed.outcomes[0]?.record.detail).not.toContain('wrong-token');
    const open = await fire([guarded('fail-open')], { case: 'allow' });
    expect(open.combined.denied).toBe(false);
    expect(open.outcomes[0]?.warning).toContain('(auth)');
  });

  it('an unset token variable sends nothing: no unauthenticated fallback, the failure policy decides', async () => {
    const closed = await fire([guarded('fail-closed')], { case: 'allow' });
    expect(closed.combined.denyReasons).toEqual([FAIL_CLOSED_REASON]);
    expect(closed.outcomes[0]?.record.detail).toContain(`${VARIABLE} is unset or empty`);
    const open = await fire([guarded('fail-open')], { case: 'allow' });
    expect(open.combined.denied).toBe(false);
    expect(open.outcomes[0]?.warning).toContain('(auth)');
    expect(httpLog).toEqual([]);
  });
});

describe('ahp harness: observe and effects', () => {
  it('AHP-RPC-002: observers get a notification without an id, answer nothing, and never delay the chain', async () => {
    process.env['AHP_LOG'] = logPath;
    const validate = await validator('observe-notification-0.1.schema.json');
    const hook = ahp(stdio('persistent'), { path: 'hooks.PostToolUse[0].hooks[0]' });
    const { failurePolicy: _policy, ...observer } = hook;
    const run = await fire([observer], { case: 'hang' }, 'PostToolUse');
    expect(run.outcomes[0]?.record.status).toBe('ok');
    await session.close(); // awaits the delivery
    const [entry] = (await backendLog()).filter((line) => line.at === 'recv');
    expect(validate(entry?.request), JSON.stringify(validate.errors)).toBe(true);
    expect(entry?.request?.params.event['type']).toBe('tool.after');
  });

  it('draft: modify replaces the input; 0.1 refuses it as unadvertised', async () => {
    process.env['AHP_LOG'] = logPath;
    const draft = await fire([ahp(stdio('persistent'), { protocolVersion: 'draft' })], {
      case: 'modify',
    });
    expect(draft.combined).toMatchObject({ denied: false, args: { command: 'ls -la' } });
    const base = await fire([ahp(stdio('persistent'))], { case: 'modify' });
    expect(base.outcomes[0]?.warning).toContain('(unadvertised-effect)');
  });
});

describe('ahp settings (AHP-REG-001, AHP-FAIL-001, AHP-FAIL-002, AHP-COMP-001)', () => {
  const load = (hooks: Record<string, unknown>) =>
    readSettingsText(JSON.stringify({ hooks }), { file: '/p/settings.json', layer: 'project' });
  const entry = (fields: Record<string, unknown> = {}) => ({
    type: 'ahp',
    transport: {
      type: 'stdio',
      command: '/usr/local/bin/policy',
      args: ['serve'],
      lifecycle: 'persistent',
    },
    failurePolicy: 'fail-closed',
    timeout: '750ms',
    protocolVersion: '0.1',
    includeNative: false,
    ...fields,
  });

  it('loads the entries of the issue', () => {
    const result = load({
      PreToolUse: [
        {
          hooks: [
            entry(),
            {
              type: 'ahp',
              transport: { type: 'http', url: 'https://policy.example.com/agent-hooks' },
              authentication: { type: 'bearer', tokenEnv: 'AHP_POLICY_TOKEN' },
              failurePolicy: 'fail-open',
              timeout: '500ms',
            },
          ],
        },
      ],
    });
    expect(result.issues).toEqual([]);
  });

  it('refuses an intercept without failurePolicy or timeout, naming file and path', () => {
    const { failurePolicy: _f, timeout: _t, ...bare } = entry();
    const result = load({ PreToolUse: [{ hooks: [bare] }] });
    expect(result.issues.map((issue) => `${issue.file} ${issue.path}`)).toEqual([
      '/p/settings.json hooks.PreToolUse[0].hooks[0].failurePolicy',
      '/p/settings.json hooks.PreToolUse[0].hooks[0].timeout',
    ]);
  });

  it('refuses failurePolicy and timeout on an observer', () => {
    const result = load({ PostToolUse: [{ hooks: [entry()] }] });
    expect(result.issues.map((issue) => issue.path)).toEqual([
      'hooks.PostToolUse[0].hooks[0].failurePolicy',
      'hooks.PostToolUse[0].hooks[0].timeout',
    ]);
  });

  it('refuses an event AHP does not map', () => {
    const result = load({ Stop: [{ hooks: [entry()] }] });
    expect(result.issues[0]).toMatchObject({ path: 'hooks.Stop[0].hooks[0]' });
    expect(result.issues[0]?.message).toContain('cannot subscribe to Stop');
  });

  it('refuses plain http to a remote host', () => {
    const result = load({
      PreToolUse: [
        { hooks: [entry({ transport: { type: 'http', url: 'http://policy.example.com/x' } })] },
      ],
    });
    expect(result.issues[0]?.path).toBe('hooks.PreToolUse[0].hooks[0].transport.url');
  });

  it('refuses the same backend subscribed twice to one event (spec §13.3)', () => {
    const result = load({
      PreToolUse: [{ hooks: [entry()] }, { hooks: [entry({ timeout: '1s' })] }],
    });
    expect(result.issues[0]?.path).toBe('hooks.PreToolUse[1].hooks[0]');
    expect(result.issues[0]?.message).toContain('already subscribed');
  });
});
