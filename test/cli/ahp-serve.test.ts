/**
 * `hookwire ahp serve`: hookwire as an AHP backend, through the built command
 * (dist/bin/hookwire.js) in a temporary project holding a Claude Code guard
 * (`.claude/settings.json`, a shell hook that denies `rm -rf`), a Gemini CLI guard
 * (`.gemini/settings.json`, denies `curl`) and hookwire's own hooks (`.hookwire/settings.json`:
 * a deny, a rewrite, and observers that log). Requests are written here from the AHP text, sent
 * over stdio (NDJSON) and loopback HTTP; every answer is validated against the JSON Schemas of
 * schemas/ahp/ and its id checked against the request's. The last test runs hookwire's own `ahp`
 * hook kind (the harness) against `hookwire ahp serve` in a real `hookwire run` on the scripted
 * model: the Claude Code guard denies `rm -rf` and the directory survives.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  BIN,
  REPOSITORY,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const built = existsSync(BIN);
if (!built) console.warn(`ahp-serve.test.ts skipped: ${BIN} is not built (run npm run build)`);

type Json = Record<string, unknown>;

const schemas: Record<string, ValidateFunction> = {};

beforeAll(async () => {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addFormat('uri', (value: string) => /^[a-z][a-z0-9+.-]*:/i.test(value));
  for (const name of [
    'capabilities-response-draft',
    'intercept-response-0.1',
    'intercept-response-draft',
    'error-response',
    'intercept-request-0.1',
  ])
    schemas[name] = ajv.compile(
      JSON.parse(
        await readFile(join(REPOSITORY, 'schemas', 'ahp', `${name}.schema.json`), 'utf8'),
      ) as object,
    );
});

/** Asserts `answer` validates against the schema its shape claims, and returns it. */
function checked(answer: Json | undefined): Json {
  expect(answer).toBeDefined();
  const value = answer as Json;
  const result = value['result'] as Json | undefined;
  const name =
    'error' in value
      ? 'error-response'
      : result?.['protocolVersion'] === 'draft'
        ? 'intercept-response-draft'
        : 'intercept-response-0.1';
  const validate = schemas[name] as ValidateFunction;
  expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  return value;
}

/** A `hooks/capabilities` request (AHP draft). */
function capabilities(id: string, version = 'draft'): Json {
  return { jsonrpc: '2.0', id, method: 'hooks/capabilities', params: { protocolVersion: version } };
}

/** The manifest of a `hooks/capabilities` answer, validated against the draft response schema. */
function manifestOf(answer: Json | undefined): Json {
  const validate = schemas['capabilities-response-draft'] as ValidateFunction;
  expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
  return ((answer as Json)['result'] as Json)['manifest'] as Json;
}

let requests = 0;

/** A `hooks/intercept` request for `tool.before` (AHP 0.1 spelling unless `version` is draft). */
function intercept(
  tool: string,
  input: Json,
  options: {
    readonly version?: string;
    readonly effects?: readonly string[];
    readonly id?: string;
    readonly cwd?: string;
  } = {},
): Json {
  const id = options.id ?? `evt_test_${++requests}`;
  const version = options.version ?? '0.1';
  const draft = version === 'draft';
  const request = {
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: {
      protocolVersion: version,
      event: {
        id,
        source: 'urn:example:harness',
        type: 'tool.before',
        time: new Date().toISOString(),
        session: {
          id: 'sess_1',
          ...(options.cwd === undefined ? {} : { cwd: options.cwd, workspaceRoots: [options.cwd] }),
        },
        tool: {
          name: tool,
          kind: tool === 'shell' ? 'shell' : 'other',
          input,
          origin: 'native',
          ...(draft ? {} : { callId: `call_${id}` }),
        },
        ...(draft ? { call: { id: `call_${id}` }, path: 'native' } : {}),
        // Unknown fields are ignored (AHP-CORE-003).
        'x-unknown': true,
      },
      capabilities: { effects: [...(options.effects ?? ['deny'])] },
    },
  };
  if (version === '0.1') {
    const validate = schemas['intercept-request-0.1'] as ValidateFunction;
    expect(validate(request), JSON.stringify(validate.errors)).toBe(true);
  }
  return request;
}

function observe(type: string, extra: Json): Json {
  return {
    jsonrpc: '2.0',
    method: 'hooks/observe',
    params: {
      protocolVersion: '0.1',
      event: {
        id: `evt_obs_${++requests}`,
        source: 'urn:example:harness',
        type,
        time: new Date().toISOString(),
        session: { id: 'sess_1' },
        ...extra,
      },
    },
  };
}

/** A shell command that logs its stdin (one line) to `log` under `label`. */
function logged(log: string, label: string, then: string): string {
  return `input=$(cat); printf '%s %s\\n' ${label} "$(printf '%s' "$input" | tr '\\n' ' ')" >> '${log}'; ${then}`;
}

interface Project {
  readonly sandbox: Sandbox;
  readonly log: string;
}

/** The project: a Claude Code guard, a Gemini CLI guard and hookwire's own hooks. */
async function project(): Promise<Project> {
  const sandbox = await createSandbox();
  const log = join(sandbox.root, 'hooks.log');
  await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: logged(
                log,
                'claude',
                `case "$input" in *'rm -rf'*) echo 'Claude Code guard: rm -rf is not allowed' >&2; exit 2;; esac; exit 0`,
              ),
            },
          ],
        },
      ],
    },
  });
  await writeJson(join(sandbox.project, '.gemini', 'settings.json'), {
    hooks: {
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [
            {
              type: 'command',
              command: logged(
                log,
                'gemini',
                `case "$input" in *curl*) echo '{"decision":"deny","reason":"Gemini CLI guard: no network"}';; *) echo '{}';; esac`,
              ),
            },
          ],
        },
      ],
    },
  });
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
    hooks: {
      PreToolUse: [
        {
          matcher: 'write_file',
          hooks: [
            {
              type: 'command',
              command: logged(
                log,
                'hookwire',
                `case "$input" in *'.env'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookwire guard: .env is protected"}}';; esac`,
              ),
            },
          ],
        },
        {
          matcher: 'format_code',
          hooks: [
            {
              type: 'command',
              command: logged(
                log,
                'rewrite',
                `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"src/main.ts","style":"prettier"}}}'`,
              ),
            },
          ],
        },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: logged(log, 'post', 'exit 0') }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: logged(log, 'start', 'exit 0') }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: logged(log, 'end', 'exit 0') }] }],
    },
  });
  return { sandbox, log };
}

async function logLines(log: string): Promise<string[]> {
  return existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean) : [];
}

/** Runs `hookwire ahp serve` over stdio with `messages` (one line each; strings verbatim). */
async function serveStdio(
  { sandbox }: Project,
  messages: readonly (Json | string)[],
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = sandbox.env,
) {
  const input = messages
    .map((message) => (typeof message === 'string' ? message : JSON.stringify(message)))
    .join('\n');
  const outcome = await runCli(['ahp', 'serve', '--cwd', sandbox.project, ...extra], {
    env,
    input: `${input}\n`,
    main: BIN,
  });
  const lines = outcome.stdout.split('\n').filter(Boolean);
  const answers = lines.map((line) => JSON.parse(line) as Json);
  return {
    ...outcome,
    lines,
    answers,
    byId: (id: unknown) => answers.filter((a) => a['id'] === id),
  };
}

const effectsOf = (answer: Json | undefined): unknown =>
  (checked(answer)['result'] as Json | undefined)?.['effects'];
const errorCodeOf = (answer: Json | undefined): unknown =>
  (checked(answer)['error'] as Json | undefined)?.['code'];

describe.runIf(built)('hookwire ahp serve over stdio', () => {
  it(
    'AHP-TB-001 AHP-DEC-001: the Claude Code guard, the Gemini CLI guard and a hookwire hook deny; other calls get []',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const rm = intercept('shell', { command: 'rm -rf build' });
      const curl = intercept('shell', { command: 'curl https://example.com' });
      const env = intercept('write_file', { path: '.env', content: 'SECRET=1' });
      const ls = intercept('shell', { command: 'ls -la' });
      const served = await serveStdio(setup, [rm, curl, env, ls]);
      expect(served.code, served.stderr).toBe(0);
      expect(served.answers).toHaveLength(4);
      expect(effectsOf(served.byId(rm['id'])[0])).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
      expect(effectsOf(served.byId(curl['id'])[0])).toEqual([
        { type: 'deny', reason: 'Gemini CLI guard: no network' },
      ]);
      expect(effectsOf(served.byId(env['id'])[0])).toEqual([
        { type: 'deny', reason: 'hookwire guard: .env is protected' },
      ]);
      expect(effectsOf(served.byId(ls['id'])[0])).toEqual([]);
      // The guards really ran on what was sent.
      const lines = await logLines(setup.log);
      expect(lines.filter((line) => line.startsWith('claude ')).join('\n')).toContain(
        'rm -rf build',
      );
      expect(lines.filter((line) => line.startsWith('gemini ')).join('\n')).toContain('curl');
    },
  );

  it(
    'AHP-RPC-001 AHP-VER-001: parse errors, invalid requests, unknown methods, unsupported versions and events get their error codes, with the id echoed',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const good = intercept('shell', { command: 'ls' });
      const params = good['params'] as Json;
      const event = params['event'] as Json;
      const messages: (Json | string)[] = [
        '{"jsonrpc":"2.0","id":"evt_broken",',
        '[{"jsonrpc":"2.0","id":"evt_batch","method":"hooks/intercept","params":{}}]',
        { jsonrpc: '1.0', id: 'evt_v1', method: 'hooks/intercept', params },
        { jsonrpc: '2.0', id: 'evt_unknown', method: 'hooks/unknown', params },
        {
          jsonrpc: '2.0',
          id: 'evt_ver',
          method: 'hooks/intercept',
          params: { ...params, protocolVersion: '9.9' },
        },
        {
          jsonrpc: '2.0',
          id: 'evt_event',
          method: 'hooks/intercept',
          params: { ...params, event: { ...event, id: 'evt_event', type: 'model.request.before' } },
        },
        {
          jsonrpc: '2.0',
          id: 'evt_input',
          method: 'hooks/intercept',
          params: {
            ...params,
            event: {
              ...event,
              id: 'evt_input',
              tool: { name: 'shell', input: '{"command":"ls"}' },
            },
          },
        },
        { jsonrpc: '2.0', id: 'evt_mismatch', method: 'hooks/intercept', params },
        { jsonrpc: '2.0', id: 'evt_obs_id', method: 'hooks/observe', params },
        { jsonrpc: '2.0', id: 7, method: 'hooks/intercept' },
      ];
      const served = await serveStdio(setup, messages);
      expect(served.code, served.stderr).toBe(0);
      expect(served.answers).toHaveLength(messages.length);
      const nulls = served.byId(null).map(errorCodeOf).sort();
      expect(nulls).toEqual([-32700, -32600].sort());
      expect(errorCodeOf(served.byId('evt_v1')[0])).toBe(-32600);
      expect(errorCodeOf(served.byId('evt_unknown')[0])).toBe(-32601);
      expect(errorCodeOf(served.byId('evt_ver')[0])).toBe(-32001);
      expect(errorCodeOf(served.byId('evt_event')[0])).toBe(-32002);
      expect(errorCodeOf(served.byId('evt_input')[0])).toBe(-32602);
      expect(errorCodeOf(served.byId('evt_mismatch')[0])).toBe(-32602);
      expect(errorCodeOf(served.byId('evt_obs_id')[0])).toBe(-32600);
      expect(errorCodeOf(served.byId(7)[0])).toBe(-32602);
      // No hook ran for any of them.
      expect(await logLines(setup.log)).toEqual([]);
    },
  );

  it(
    'AHP-RPC-002: hooks/observe notifications run the observers and are never answered',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const ls = intercept('shell', { command: 'ls' });
      const served = await serveStdio(setup, [
        observe('session.start', { trigger: 'startup' }),
        observe('tool.after', {
          tool: {
            name: 'shell',
            kind: 'shell',
            input: { command: 'ls' },
            callId: 'c1',
            origin: 'native',
            output: 'a.txt',
          },
        }),
        { jsonrpc: '2.0', method: 'hooks/observe', params: 'not an object' },
        { jsonrpc: '2.0', method: 'something/else', params: {} },
        ls,
        observe('session.end', { reason: 'exit' }),
      ]);
      expect(served.code, served.stderr).toBe(0);
      // One line: the intercept's answer; the four notifications got nothing.
      expect(served.lines).toHaveLength(1);
      expect(effectsOf(served.answers[0])).toEqual([]);
      const lines = await logLines(setup.log);
      expect(lines.filter((line) => line.startsWith('start '))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('end '))).toHaveLength(1);
      const post = lines.filter((line) => line.startsWith('post '));
      expect(post).toHaveLength(1);
      expect(post[0]).toContain('a.txt');
    },
  );

  it(
    'AHP-CORE-004: a duplicate id gets the same answer, and the hooks run once',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const rm = intercept('shell', { command: 'rm -rf dist' }, { id: 'evt_dup' });
      const served = await serveStdio(setup, [rm, rm, rm]);
      expect(served.code, served.stderr).toBe(0);
      const answers = served.byId('evt_dup');
      expect(answers).toHaveLength(3);
      for (const answer of answers) expect(answer).toEqual(checked(answers[0]));
      expect(effectsOf(answers[0])).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
      expect((await logLines(setup.log)).filter((line) => line.startsWith('claude '))).toHaveLength(
        1,
      );
    },
  );

  it(
    'a rewrite is never dropped: -32004 unless modify was advertised (draft), then a modify effect',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const plain = intercept('format_code', { path: 'src/main.ts' });
      const draftNoModify = intercept('format_code', { path: 'src/main.ts' }, { version: 'draft' });
      const draft = intercept(
        'format_code',
        { path: 'src/main.ts' },
        { version: 'draft', effects: ['deny', 'modify', 'message'] },
      );
      const draftDeny = intercept(
        'shell',
        { command: 'rm -rf /' },
        { version: 'draft', effects: ['deny', 'modify'] },
      );
      const served = await serveStdio(setup, [plain, draftNoModify, draft, draftDeny]);
      expect(served.code, served.stderr).toBe(0);
      expect(errorCodeOf(served.byId(plain['id'])[0])).toBe(-32004);
      expect(errorCodeOf(served.byId(draftNoModify['id'])[0])).toBe(-32004);
      expect(effectsOf(served.byId(draft['id'])[0])).toEqual([
        {
          type: 'modify',
          target: 'input',
          operation: 'replace',
          value: { path: 'src/main.ts', style: 'prettier' },
        },
      ]);
      expect(effectsOf(served.byId(draftDeny['id'])[0])).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
    },
  );

  it(
    'never loads hooks from a directory named in a request: session.cwd is not the project',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const elsewhere = join(setup.sandbox.root, 'elsewhere');
      await writeJson(join(elsewhere, '.claude', 'settings.json'), {
        hooks: {
          PreToolUse: [
            { hooks: [{ type: 'command', command: `echo elsewhere >> '${setup.log}'; exit 2` }] },
          ],
        },
      });
      const ls = intercept('shell', { command: 'ls' }, { cwd: elsewhere });
      const served = await serveStdio(setup, [ls]);
      expect(served.code, served.stderr).toBe(0);
      expect(effectsOf(served.answers[0])).toEqual([]);
      const lines = await logLines(setup.log);
      expect(lines.some((line) => line.startsWith('elsewhere'))).toBe(false);
      // The project's own guard saw the call, with the server's project as its cwd.
      expect(lines.find((line) => line.startsWith('claude '))).toContain(setup.sandbox.project);
    },
  );

  it(
    'hooks/capabilities: the draft manifest (validated against the spec-derived schema) names tool.before interception with the effects the backend answers, the stdio binding and no credentials; 0.1 has no such method',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const served = await serveStdio(setup, [
        capabilities('cap_draft'),
        capabilities('cap_01', '0.1'),
        capabilities('cap_99', '9.9'),
        { jsonrpc: '2.0', id: 'cap_noparams', method: 'hooks/capabilities' },
      ]);
      expect(served.code, served.stderr).toBe(0);
      expect(served.answers).toHaveLength(4);
      const draft = served.byId('cap_draft')[0];
      expect((draft?.['result'] as Json)['protocolVersion']).toBe('draft');
      const manifest = manifestOf(draft);
      expect(manifest['events']).toContainEqual({
        event: 'tool.before',
        modes: ['intercept'],
        capabilities: {
          effects: ['deny', 'modify', 'message', 'flow'],
          modify: { input: { replace: true, merge: false } },
          flow: { operations: ['stop'] },
        },
      });
      expect(manifest['events']).toContainEqual({ event: 'session.end', modes: ['observe'] });
      expect(manifest['transports']).toEqual(['stdio']);
      expect(manifest['authentication']).toEqual([]);
      expect(errorCodeOf(served.byId('cap_01')[0])).toBe(-32601);
      expect(errorCodeOf(served.byId('cap_99')[0])).toBe(-32001);
      expect(errorCodeOf(served.byId('cap_noparams')[0])).toBe(-32602);
      // Discovery runs no hook.
      expect(await logLines(setup.log)).toEqual([]);
    },
  );

  it(
    'refuses an untrusted project with a clear error, and serves it with --trust-project',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const { HOOKWIRE_TRUST_PROJECT: _trusted, ...untrusted } = setup.sandbox.env;
      const rm = intercept('shell', { command: 'rm -rf build' });
      const refused = await serveStdio(setup, [rm], [], untrusted);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('not trusted');
      expect(refused.stderr).toContain('hookwire hooks trust');
      expect(refused.stderr).toContain('--trust-project');
      expect(await logLines(setup.log)).toEqual([]);
      const served = await serveStdio(setup, [rm], ['--trust-project'], untrusted);
      expect(served.code, served.stderr).toBe(0);
      expect(effectsOf(served.answers[0])).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
    },
  );
});

/** Starts `hookwire ahp serve --http 127.0.0.1:0` and returns its URL and a stop. */
async function serveHttp(
  { sandbox }: Project,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = sandbox.env,
) {
  const child = spawn(
    process.execPath,
    [BIN, 'ahp', 'serve', '--cwd', sandbox.project, '--http', '127.0.0.1:0', ...extra],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => {
      reject(new Error(`ahp serve exited: ${stderr}`));
    });
  });
  const post = async (body: Json | string, authorization?: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      json: text === '' ? undefined : (JSON.parse(text) as Json),
      challenge: response.headers.get('www-authenticate'),
    };
  };
  const stop = async () => {
    child.kill('SIGTERM');
    return { code: await exited, stdout, stderr };
  };
  return { url, post, stop };
}

describe.runIf(built)('hookwire ahp serve over loopback HTTP', () => {
  it(
    'AHP-HTTP-001: 200 with the answer for intercepts and errors, 202 and no body for notifications',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const server = await serveHttp(setup);
      const rm = intercept('shell', { command: 'rm -rf build' });
      const denied = await server.post(rm);
      expect(denied.status).toBe(200);
      expect(denied.json?.['id']).toBe(rm['id']);
      expect(effectsOf(denied.json)).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
      const curl = await server.post(intercept('shell', { command: 'curl x' }));
      expect(effectsOf(curl.json)).toEqual([
        { type: 'deny', reason: 'Gemini CLI guard: no network' },
      ]);
      const ls = await server.post(intercept('shell', { command: 'ls' }));
      expect(ls.status).toBe(200);
      expect(effectsOf(ls.json)).toEqual([]);
      const notification = await server.post(observe('session.end', { reason: 'exit' }));
      expect(notification.status).toBe(202);
      expect(notification.text).toBe('');
      expect(errorCodeOf((await server.post('not json')).json)).toBe(-32700);
      expect(
        errorCodeOf((await server.post({ jsonrpc: '2.0', id: 'x1', method: 'nope' })).json),
      ).toBe(-32601);
      const version = intercept('shell', { command: 'ls' });
      (version['params'] as Json)['protocolVersion'] = '0.2';
      expect(errorCodeOf((await server.post(version)).json)).toBe(-32001);
      // A duplicate, sequential this time: the same answer, one run of the guard.
      const again = await server.post(rm);
      expect(again.json).toEqual(denied.json);
      expect((await fetch(server.url)).status).toBe(405);
      const stopped = await server.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toBe('');
      const lines = await logLines(setup.log);
      expect(lines.filter((line) => line.includes('rm -rf build'))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('end '))).toHaveLength(1);
    },
  );

  it(
    'AHP-HTTP-001 bearer: with --token-env every POST needs Authorization: Bearer <token>; a missing or wrong token gets 401 with a JSON-RPC error and runs no hook',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const env = { ...setup.sandbox.env, AHP_SERVE_TOKEN: 'tok-7f3a9' };
      const server = await serveHttp(setup, ['--token-env', 'AHP_SERVE_TOKEN'], env);
      const rm = intercept('shell', { command: 'rm -rf build' });
      for (const authorization of [
        undefined,
        'Bearer wrong-token',
        'Basic dG9rLTdmM2E5',
        'Bearer ',
      ]) {
        const refused = await server.post(rm, authorization);
        expect(refused.status, String(authorization)).toBe(401);
        expect(refused.challenge).toMatch(/^Bearer /);
        expect(errorCodeOf(refused.json)).toBe(-32000);
        expect(refused.json?.['id']).toBeNull();
        expect(refused.text).not.toContain('tok-7f3a9');
      }
      // Nothing was evaluated for the refused requests.
      expect(await logLines(setup.log)).toEqual([]);
      const denied = await server.post(rm, 'Bearer tok-7f3a9');
      expect(denied.status).toBe(200);
      expect(effectsOf(denied.json)).toEqual([
        { type: 'deny', reason: 'Claude Code guard: rm -rf is not allowed' },
      ]);
      const manifest = manifestOf(
        (await server.post(capabilities('cap_http'), 'Bearer tok-7f3a9')).json,
      );
      expect(manifest['transports']).toEqual(['http']);
      expect(manifest['authentication']).toEqual(['bearer']);
      const stopped = await server.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stderr).not.toContain('tok-7f3a9');
      expect(
        (await logLines(setup.log)).filter((line) => line.includes('rm -rf build')),
      ).toHaveLength(1);
    },
  );

  it(
    '--token-env is refused without --http, and with an unset variable',
    { timeout: 120_000 },
    async () => {
      const setup = await project();
      const stdio = await runCli(
        ['ahp', 'serve', '--cwd', setup.sandbox.project, '--token-env', 'AHP_SERVE_TOKEN'],
        { env: { ...setup.sandbox.env, AHP_SERVE_TOKEN: 'x' }, main: BIN, input: '' },
      );
      expect(stdio.code).toBe(1);
      expect(stdio.stderr).toContain('--token-env applies to --http only');
      const unset = await runCli(
        [
          'ahp',
          'serve',
          '--cwd',
          setup.sandbox.project,
          '--http',
          '127.0.0.1:0',
          '--token-env',
          'AHP_SERVE_TOKEN_UNSET',
        ],
        { env: setup.sandbox.env, main: BIN },
      );
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain('AHP_SERVE_TOKEN_UNSET');
    },
  );

  it('refuses a non-loopback address', { timeout: 120_000 }, async () => {
    const setup = await project();
    const outcome = await runCli(
      ['ahp', 'serve', '--cwd', setup.sandbox.project, '--http', '0.0.0.0:8080'],
      { env: setup.sandbox.env, main: BIN },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('loopback');
  });
});

describe.runIf(built)('the ahp hook kind (harness) against hookwire ahp serve (backend)', () => {
  it(
    'AHP-TB-001 AHP-DEC-002: in a real hookwire run the Claude Code guard behind ahp serve denies rm -rf and the directory survives; an allowed call runs',
    { timeout: 120_000 },
    async () => {
      const backend = await project();
      const harness = await createSandbox();
      const victim = join(harness.project, 'victim');
      await mkdir(victim);
      await writeFile(join(victim, 'keep.txt'), 'precious');
      await writeFile(join(harness.project, 'scratch.txt'), 'scratch');
      const settings = await writeJson(join(harness.root, 'ahp.json'), {
        permissions: { allow: ['shell'] },
        hooks: {
          PreToolUse: [
            {
              hooks: [
                {
                  type: 'ahp',
                  transport: {
                    type: 'stdio',
                    command: process.execPath,
                    args: [
                      BIN,
                      'ahp',
                      'serve',
                      '--cwd',
                      backend.sandbox.project,
                      '--trust-project',
                    ],
                    lifecycle: 'persistent',
                  },
                  failurePolicy: 'fail-closed',
                  timeout: '30s',
                },
              ],
            },
          ],
        },
      });
      const script = await writeScript(join(harness.root, 'model.jsonl'), [
        callTool('c0', 'shell', { command: 'rm -rf victim' }),
        callTool('c1', 'shell', { command: 'rm -f scratch.txt' }),
        say('done'),
      ]);
      const run = await runCli(
        [
          'run',
          'go',
          '--model',
          `scripted:${script}`,
          '--cwd',
          harness.project,
          '--settings',
          settings,
          '--output-format',
          'stream-json',
        ],
        { env: { ...harness.env, HOOKWIRE_HOME: backend.sandbox.home }, main: BIN },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(victim, 'keep.txt'))).toBe(true);
      expect(existsSync(join(harness.project, 'scratch.txt'))).toBe(false);
      const results = jsonLines(run.stdout).filter((line) => line['type'] === 'tool-result');
      expect(String(results[0]?.['error'])).toContain('Claude Code guard: rm -rf is not allowed');
      const claude = (await logLines(backend.log)).filter((line) => line.startsWith('claude '));
      expect(claude).toHaveLength(2);
      expect(claude[0]).toContain('rm -rf victim');
      expect(claude[1]).toContain('rm -f scratch.txt');
    },
  );
});
