/**
 * What root's sandboxed shell can no longer do, through the real CLI (the sources and the built
 * bin) and the real bubblewrap: remount the read-only root and write outside the project, or
 * reach a host Unix socket under `/run` or `$XDG_RUNTIME_DIR` (a docker or ssh-agent socket).
 * Files outside the project live under /var/tmp: the sandbox's private /tmp would hide a path
 * under /tmp whatever else it did, so a write there proves nothing.
 */
import { existsSync } from 'node:fs';
import { access, constants, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findBwrap } from '../../src/hook-kinds/group/index.ts';
import {
  MAIN,
  REPOSITORY,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  scriptedRunArgs,
  writeScript,
  type Sandbox,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const ENTRIES: readonly (readonly [string, string])[] = [
  ['sources', MAIN],
  ...(existsSync(BIN) ? [['built bin', BIN] as const] : []),
];

const bwrap = await findBwrap();
const python = await findOnPath('python3');
const writable = async (directory: string): Promise<boolean> =>
  access(directory, constants.W_OK).then(
    () => true,
    () => false,
  );
const varTmp = await writable('/var/tmp');
const run = await writable('/run');

async function findOnPath(name: string): Promise<string | undefined> {
  for (const directory of (process.env['PATH'] ?? '').split(':')) {
    if (directory === '') continue;
    const candidate = join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs `commands` through the shell tool of `hookwire run --sandbox`; each one's stdout. */
async function sandboxedShell(
  main: string,
  sandbox: Sandbox,
  commands: readonly string[],
  env: NodeJS.ProcessEnv = sandbox.env,
): Promise<string[]> {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    ...commands.map((command, index) => callTool(`c${index}`, 'shell', { command })),
    say('done'),
  ]);
  const outcome = await runCli(
    scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json', '--sandbox']),
    { env, main },
  );
  expect(outcome.code, outcome.stderr).toBe(0);
  return jsonLines(outcome.stdout)
    .filter((line) => line['type'] === 'tool-result')
    .map((line) => {
      const result = line['result'] as { stdout?: string } | undefined;
      return result?.stdout ?? String(line['error']);
    });
}

/** A directory outside /tmp (so visible inside the sandbox), removed when the test ends. */
async function hostDirectory(parent: string): Promise<string> {
  const directory = await mkdtemp(join(parent, 'hookwire-sandbox-test-'));
  onTestFinished(async () => {
    await rm(directory, { recursive: true, force: true });
  });
  return directory;
}

/** A Unix socket server at `path` that counts its connections; closed when the test ends. */
async function socketServer(path: string): Promise<{ connections: () => number }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.end('reached\n');
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  onTestFinished(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  return { connections: () => connections };
}

/** A shell command that connects to the Unix socket `path` and prints `reached` or `unreachable`. */
const connectTo = (path: string): string =>
  `python3 -c 'import socket,sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1]); print(s.recv(64).decode().strip())
except OSError as error:
    print("unreachable", error)' ${JSON.stringify(path)}`;

describe.skipIf(bwrap === undefined)('--sandbox takes root’s powers away', () => {
  describe.each(ENTRIES)('%s', (_, main) => {
    it.skipIf(!varTmp)(
      'a remount of / fails and a file outside the project stays unwritten',
      async () => {
        const sandbox = await createSandbox();
        const outsideDirectory = await hostDirectory('/var/tmp');
        const outside = join(outsideDirectory, 'outside.txt');
        await writeFile(outside, 'untouched');
        const [remount, write, capabilities] = await sandboxedShell(main, sandbox, [
          'mount -o remount,bind,rw / 2>&1; echo "remount exit $?"',
          `echo pwned > ${outside} 2>&1; echo "write exit $?"; echo inside > in.txt`,
          'grep CapEff /proc/self/status',
        ]);
        expect(remount).toMatch(/remount exit [1-9]/);
        expect(write).toMatch(/write exit [1-9]/);
        expect(capabilities).toMatch(/CapEff:\s+0+\n/);
        expect(await readFile(outside, 'utf8')).toBe('untouched');
        expect(await readFile(join(sandbox.project, 'in.txt'), 'utf8')).toBe('inside\n');
      },
    );

    it.skipIf(python === undefined || !varTmp)(
      'a host socket under $XDG_RUNTIME_DIR is unreachable; the same socket unmasked is reached',
      async () => {
        const sandbox = await createSandbox();
        const runtime = await hostDirectory('/var/tmp');
        const path = join(runtime, 'agent.sock');
        const server = await socketServer(path);

        // Control: without the variable nothing masks the directory, and the probe gets through.
        const { XDG_RUNTIME_DIR: _unused, ...withoutRuntime } = sandbox.env;
        const [control] = await sandboxedShell(main, sandbox, [connectTo(path)], withoutRuntime);
        expect(control?.trim()).toBe('reached');
        expect(server.connections()).toBe(1);

        const [masked] = await sandboxedShell(main, sandbox, [connectTo(path)], {
          ...sandbox.env,
          XDG_RUNTIME_DIR: runtime,
        });
        expect(masked).toContain('unreachable');
        expect(server.connections()).toBe(1);
      },
    );

    it.skipIf(python === undefined || !run)(
      'a socket under the real /run (a docker.sock) is unreachable',
      async () => {
        const sandbox = await createSandbox();
        const path = join(await hostDirectory('/run'), 'docker.sock');
        const server = await socketServer(path);
        const [probe] = await sandboxedShell(main, sandbox, [connectTo(path)]);
        expect(probe).toContain('unreachable');
        expect(server.connections()).toBe(0);
      },
    );
  });
});
