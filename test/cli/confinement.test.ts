/**
 * What a prompt-injected model can reach through the real CLI (`hookwire run` with a scripted
 * model): no credential through the shell tool, no write outside the project with the file
 * tools, and under --sandbox none with the shell either; permission rules from settings.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBwrap } from '../../src/hook-kinds/group/index.ts';
import {
  createSandbox,
  readLog,
  settingsWith,
  writeHookScript,
  writeJson,
  runToolCalls,
  LOGGER_HOOK,
} from './support.ts';

const CREDENTIALS = {
  ANTHROPIC_API_KEY: 'sk-ant-cli-test-credential',
  OPENAI_API_KEY: 'sk-openai-cli-test-credential',
  GITHUB_TOKEN: 'ghp-cli-test-credential',
  AWS_SECRET_ACCESS_KEY: 'aws-cli-test-credential',
};

describe('the model’s shell has no credentials', () => {
  it('env through the shell tool shows none of the parent’s keys; passEnvironment passes a named one', async () => {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env, ...CREDENTIALS };
    const { results } = await runToolCalls(sandbox, [['shell', { command: 'env' }]], [], env);
    const stdout = (results[0]?.result as { stdout: string }).stdout;
    for (const value of Object.values(CREDENTIALS)) expect(stdout).not.toContain(value);
    expect(stdout).toContain('HOOKWIRE_HOME=');

    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      passEnvironment: ['GITHUB_TOKEN'],
    });
    const passed = await runToolCalls(sandbox, [['shell', { command: 'env' }]], [], env);
    const passedOut = (passed.results[0]?.result as { stdout: string }).stdout;
    expect(passedOut).toContain('GITHUB_TOKEN=ghp-cli-test-credential');
    expect(passedOut).not.toContain('sk-ant-cli-test-credential');
  });

  it('hooks inherit the environment, unless they ask for "environment": "scrubbed"', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'env.log');
    const dump = await writeHookScript(
      sandbox.project,
      'env.mjs',
      `import { appendFileSync } from 'node:fs';
appendFileSync(process.argv[2], JSON.stringify({ key: process.env.ANTHROPIC_API_KEY ?? null }) + '\\n');`,
      [log],
    );
    await writeJson(
      join(sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({
        SessionStart: [dump, { command: `${dump} scrubbed`, environment: 'scrubbed' }],
      }),
    );
    await runToolCalls(sandbox, [], [], { ...sandbox.env, ...CREDENTIALS });
    const keys = (await readLog(log)).map((entry) => entry['key']).sort();
    expect(keys).toEqual(['sk-ant-cli-test-credential', null].sort());
  });
});

describe('the file tools stay in the project', () => {
  it('refuses ../, absolute and symlink escapes with an error the model sees as the tool result', async () => {
    const sandbox = await createSandbox();
    const outside = join(sandbox.root, 'outside.txt');
    await writeFile(outside, 'untouched');
    await symlink(outside, join(sandbox.project, 'link.txt'));
    const { results, code } = await runToolCalls(sandbox, [
      ['write_file', { path: '../outside.txt', content: 'pwned' }],
      ['write_file', { path: outside, content: 'pwned' }],
      ['edit_file', { path: 'link.txt', old_string: 'untouched', new_string: 'pwned' }],
      ['read_file', { path: 'link.txt' }],
      ['write_file', { path: 'inside.txt', content: 'fine' }],
    ]);
    expect(code).toBe(0);
    expect(results.slice(0, 4).map((result) => result.error)).toEqual(
      Array(4).fill(expect.stringContaining('is outside the project directory')),
    );
    expect(results[4]?.error).toBeUndefined();
    expect(await readFile(outside, 'utf8')).toBe('untouched');
    expect(await readFile(join(sandbox.project, 'inside.txt'), 'utf8')).toBe('fine');
  });

  it('--add-dir opens one more directory', async () => {
    const sandbox = await createSandbox();
    const extra = join(sandbox.root, 'extra');
    await mkdir(extra);
    const { results } = await runToolCalls(
      sandbox,
      [['write_file', { path: join(extra, 'a.txt'), content: 'added' }]],
      ['--add-dir', extra],
    );
    expect(results[0]?.error).toBeUndefined();
    expect(await readFile(join(extra, 'a.txt'), 'utf8')).toBe('added');
  });
});

describe('permission rules from settings', () => {
  it('a deny rule refuses; an unallowed edit in default mode is denied headless and a permission_prompt Notification hook hears it', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'notifications.log');
    const logger = await writeHookScript(sandbox.project, 'log.mjs', LOGGER_HOOK, [log]);
    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      permissions: { allow: ['shell(echo *)'], deny: ['shell(git push *)'] },
      ...(settingsWith(
        { Notification: [logger] },
        { Notification: { matcher: 'permission_prompt' } },
      ) as object),
    });
    const { results } = await runToolCalls(sandbox, [
      ['shell', { command: 'echo ok' }],
      ['shell', { command: 'git push origin main' }],
      ['write_file', { path: 'a.txt', content: 'x' }],
    ]);
    expect(results[0]?.error).toBeUndefined();
    expect(results[1]?.error).toContain('shell(git push *)');
    expect(results[2]?.error).toContain('no PermissionRequest hook decided');
    await expect(stat(join(sandbox.project, 'a.txt'))).rejects.toThrow();
    const heard = await readLog(log);
    expect(heard.map((entry) => entry['notification_type'])).toEqual(['permission_prompt']);

    const accepted = await runToolCalls(
      sandbox,
      [['write_file', { path: 'a.txt', content: 'x' }]],
      ['--permission-mode', 'acceptEdits'],
    );
    expect(accepted.results[0]?.error).toBeUndefined();
  });
});

const bwrap = await findBwrap();

describe.skipIf(bwrap === undefined)('--sandbox', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a sandboxed shell cannot write outside the project or reach a loopback server', async () => {
    const sandbox = await createSandbox();
    const outside = join(sandbox.root, 'outside.txt');
    await writeFile(outside, 'untouched');
    // bash's /dev/tcp, not this Node: a Node under /tmp is hidden by the sandbox's private /tmp.
    const fetch = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3' 2>/dev/null | grep -q reached && echo 'got reached' || echo failed`;
    const { results } = await runToolCalls(
      sandbox,
      [
        ['shell', { command: `echo pwned > ${outside}; echo inside > in.txt` }],
        ['shell', { command: fetch }],
      ],
      ['--sandbox'],
    );
    expect(await readFile(outside, 'utf8')).toBe('untouched');
    expect(await readFile(join(sandbox.project, 'in.txt'), 'utf8')).toBe('inside\n');
    expect((results[1]?.result as { stdout: string }).stdout).toContain('failed');

    const networked = await runToolCalls(
      sandbox,
      [['shell', { command: fetch }]],
      ['--sandbox', '--sandbox-network'],
    );
    expect((networked.results[0]?.result as { stdout: string }).stdout).toContain('got reached');
  });

  it('a hook with "sandbox": true runs confined too', async () => {
    const sandbox = await createSandbox();
    const outside = join(sandbox.root, 'hook-outside.txt');
    await writeJson(
      join(sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({
        SessionStart: [
          { command: `echo pwned > ${outside}; echo in > hook-in.txt`, sandbox: true },
        ],
      }),
    );
    await runToolCalls(sandbox, []);
    await expect(stat(outside)).rejects.toThrow();
    expect(await readFile(join(sandbox.project, 'hook-in.txt'), 'utf8')).toBe('in\n');
  });
});

describe('--sandbox without bubblewrap', () => {
  it('fails at once, saying how to install it', async () => {
    const sandbox = await createSandbox();
    const { code, stderr, results } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo never' }]],
      ['--sandbox'],
      { ...sandbox.env, PATH: dirname(process.execPath) },
    );
    expect(code).toBe(1);
    expect(results).toEqual([]);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('apt-get install bubblewrap');
  });
});
