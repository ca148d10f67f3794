/**
 * The file tools write where the confinement check looked: through the real CLI, 200
 * `write_file d/x-N` calls while another process keeps swapping the directory `d` with a symbolic
 * link to a directory outside the project (`renameat2(RENAME_EXCHANGE)`, a Python ctypes helper).
 * Each write was checked against a path that may have been swapped by the time it is written; none
 * may land outside. Checked through the sources and the built bin.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
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
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const ENTRIES: readonly (readonly [string, string])[] = [
  ['sources', MAIN],
  ...(existsSync(BIN) ? [['built bin', BIN] as const] : []),
];
const SWAPPER = resolve(import.meta.dirname, '..', 'fixtures', 'races', 'rename-exchange.py');
const CALLS = 200;

/** Starts the swapper on `first` and `second` (in `cwd`); resolves once it swapped once. */
async function startSwapper(cwd: string): Promise<{ stop: () => Promise<number> }> {
  const child = spawn('python3', [SWAPPER, 'd', 'l'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((settle) => child.on('close', settle));
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  const first = await iterator.next();
  if (first.value !== 'ready') throw new Error(`the swapper did not start: ${stderr}`);
  return {
    async stop() {
      child.kill('SIGTERM');
      const last = await iterator.next();
      const code = await exited;
      expect(code, stderr).toBe(0);
      return Number(/^swaps (\d+)$/.exec(String(last.value))?.[1] ?? 0);
    },
  };
}

describe.each(ENTRIES)('write_file under a directory/symlink swap race (%s)', (_, main) => {
  it(`lands none of ${CALLS} writes outside the project`, async () => {
    const sandbox = await createSandbox();
    const outside = join(sandbox.root, 'outside');
    await mkdir(outside);
    await mkdir(join(sandbox.project, 'd'));
    await symlink(outside, join(sandbox.project, 'l'));
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      ...Array.from({ length: CALLS }, (_unused, index) =>
        callTool(`c${index}`, 'write_file', { path: `d/x-${index}`, content: 'data' }),
      ),
      say('done'),
    ]);
    const swapper = await startSwapper(sandbox.project);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, [
        '--output-format',
        'stream-json',
        '--max-model-calls',
        String(CALLS + 1),
      ]),
      { env: sandbox.env, main },
    );
    const swaps = await swapper.stop();
    expect(outcome.code, outcome.stderr).toBe(0);

    const results = jsonLines(outcome.stdout).filter((line) => line['type'] === 'tool-result');
    expect(results).toHaveLength(CALLS);
    expect(swaps).toBeGreaterThan(CALLS);
    expect(await readdir(outside)).toEqual([]);
    // The writes that were not refused landed in the directory, whichever name it had then.
    const written = results.filter((result) => result['error'] === undefined).length;
    expect(written).toBeGreaterThan(0);
    expect((await readdir(join(sandbox.project, 'd'))).length).toBe(written);
  });
});
