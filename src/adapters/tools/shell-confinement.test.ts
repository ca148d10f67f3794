/**
 * The shell tool's environment and sandbox, with real processes: credentials absent by default
 * and present where passed; under bubblewrap, no writes outside the project and no network.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolExecutionContext } from '../../loop/tool.ts';
import { shellTool, type ShellToolResult } from './shell-tool.ts';
import { credentialVariables, findBwrap } from '../../supervision/process-confinement.ts';

let root: string;
let project: string;
let outside: string;
let context: ToolExecutionContext;
const saved: Record<string, string | undefined> = {};
const fakeCredentials = {
  ANTHROPIC_API_KEY: 'sk-ant-test-credential-1',
  GITHUB_TOKEN: 'ghp-test-credential-2',
  DB_PASSWORD_PRIMARY: 'hunter2-test-credential',
  AWS_SECRET_ACCESS_KEY: 'aws-test-secret-credential',
  AWS_SESSION_TOKEN: 'aws-test-session-credential',
  INNOCENT_COPY: 'sk-ant-test-credential-1',
  HOOKWIRE_TEST_PLAIN: 'visible',
};

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hookwire-shell-')));
  project = join(root, 'project');
  outside = join(root, 'outside');
  await mkdir(project, { recursive: true });
  await mkdir(outside, { recursive: true });
  context = { signal: new AbortController().signal, cwd: project, toolCallId: 'call-1' };
  for (const [name, value] of Object.entries(fakeCredentials)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterEach(async () => {
  for (const name of Object.keys(fakeCredentials)) {
    if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = saved[name];
  }
  await rm(root, { recursive: true, force: true });
});

async function run(tool: ReturnType<typeof shellTool>, command: string): Promise<ShellToolResult> {
  return (await tool.execute({ command }, context)) as ShellToolResult;
}

describe('credentialVariables', () => {
  it('names credentials by name, and copies of their values under other names, minus the passed ones', () => {
    expect(credentialVariables(fakeCredentials)).toEqual([
      'ANTHROPIC_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'DB_PASSWORD_PRIMARY',
      'GITHUB_TOKEN',
      'INNOCENT_COPY',
    ]);
    expect(credentialVariables(fakeCredentials, ['GITHUB_TOKEN'])).not.toContain('GITHUB_TOKEN');
    expect(credentialVariables({ PATH: '/bin', TOKENIZER: 'x', MONKEY: 'y' })).toEqual([]);
  });
});

describe('the shell tool’s environment', () => {
  it('has no credentials by default: `env` shows none of them', async () => {
    const result = await run(shellTool(), 'env > env.txt; cat env.txt');
    expect(result.exitCode).toBe(0);
    for (const value of Object.values(fakeCredentials).filter((value) => value !== 'visible'))
      expect(result.stdout).not.toContain(value);
    expect(result.stdout).toContain('HOOKWIRE_TEST_PLAIN=visible');
    expect(await readFile(join(project, 'env.txt'), 'utf8')).not.toContain('sk-ant');
  });

  it('keeps the variables passed by name, and everything with scrub: false', async () => {
    const passed = await run(shellTool({ environment: { pass: ['GITHUB_TOKEN'] } }), 'env');
    expect(passed.stdout).toContain('GITHUB_TOKEN=ghp-test-credential-2');
    expect(passed.stdout).not.toContain('ANTHROPIC_API_KEY');
    const inherited = await run(shellTool({ environment: { scrub: false } }), 'env');
    expect(inherited.stdout).toContain('ANTHROPIC_API_KEY=sk-ant-test-credential-1');
  });

  it('keeps a command exactly as written: quotes, $0-free expansions and exit codes', async () => {
    const result = await run(shellTool(), `printf '%s|' "it's" "$HOOKWIRE_TEST_PLAIN"; exit 3`);
    expect(result).toMatchObject({ exitCode: 3, stdout: "it's|visible|" });
  });
});

const bwrap = await findBwrap();

describe.skipIf(bwrap === undefined)('the shell tool under --sandbox (bubblewrap)', () => {
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

  // Probes with bash's /dev/tcp, not with this Node: a Node installed under /tmp (a checkout
  // there) is hidden by the sandbox's private /tmp, which would fail the probe for the wrong reason.
  const fetchScript = (target: number) =>
    `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${target} && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3' 2>/dev/null | grep -q reached && echo 'got reached' || echo failed`;

  it('writes inside the project, not outside it, and has a private /tmp', async () => {
    await writeFile(join(outside, 'keep.txt'), 'original');
    const tool = shellTool({ sandbox: {} });
    const result = await run(
      tool,
      `echo inside > made.txt; echo pwned > ${outside}/keep.txt; echo $?; touch /etc/hookwire-pwned; echo $?; ls -A /tmp; ls -A ${root}`,
    );
    const [outsideStatus, etcStatus, tmpEntries, rootEntries] = result.stdout.trim().split('\n');
    expect(await readFile(join(project, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(outsideStatus).not.toBe('0');
    expect(etcStatus).not.toBe('0');
    // The private /tmp holds only the path to the (bound) project: not the outside directory.
    expect(tmpEntries).toBe(relative('/tmp', root).split(sep)[0]);
    expect(rootEntries).toBe('project');
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('original');
    await expect(stat('/etc/hookwire-pwned')).rejects.toThrow();
    expect(result.stderr).toMatch(/Read-only file system/);
  });

  it('cannot reach a loopback server without --sandbox-network, and can with it', async () => {
    const unsandboxed = await run(shellTool(), fetchScript(port));
    expect(unsandboxed.stdout).toContain('got reached');
    const sandboxed = await run(shellTool({ sandbox: {} }), fetchScript(port));
    expect(sandboxed.stdout).toMatch(/failed/);
    expect(sandboxed.stdout).not.toContain('reached');
    const networked = await run(shellTool({ sandbox: { network: true } }), fetchScript(port));
    expect(networked.stdout).toContain('got reached');
  });

  it('scrubs credentials inside the sandbox too', async () => {
    const result = await run(shellTool({ sandbox: {} }), 'env');
    expect(result.stdout).not.toContain('sk-ant-test-credential-1');
    expect(result.stdout).toContain('HOOKWIRE_TEST_PLAIN=visible');
  });

  it('is killed at its deadline like any command', async () => {
    const tool = shellTool({ sandbox: {}, killGraceMs: 200 });
    await expect(tool.execute({ command: 'sleep 30', timeout: 0.5 }, context)).rejects.toThrow(
      /timed out/,
    );
  });
});
