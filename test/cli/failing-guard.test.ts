/**
 * A failClosed guard that keeps failing is not silent (issue 27): a process-hook guard that
 * exits at every start denies each of 12 shell calls (restarted with backoff), and the built CLI
 * says so once on stderr with the count, and records it in the result (`hookFailures`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPOSITORY,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  scriptedRunArgs,
  writeJson,
  writeScript,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const built = existsSync(BIN);
if (!built) console.warn(`failing-guard.test.ts skipped: ${BIN} is not built (run npm run build)`);

const CALLS = 12;

describe.skipIf(!built)('a crash-looping failClosed guard (built CLI)', () => {
  it('denies every call, says so once on stderr with the count, and the result records it', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'process',
                name: 'guard',
                command: 'echo "guard: cannot load its policy" >&2; exit 3',
                timeout: '2s',
                failClosed: true,
              },
            ],
          },
        ],
      },
    });
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      ...Array.from({ length: CALLS }, (_, index) =>
        callTool(`c${index}`, 'shell', { command: `touch ran-${index}.txt` }),
      ),
      say('done'),
    ]);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'json']),
      { main: BIN, env: sandbox.env },
    );
    const lines = outcome.stderr.split('\n').filter((line) => line.includes('failClosed hook'));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^hookwire: failClosed hook "guard" \\(PreToolUse\\) failed ${CALLS} of ${CALLS} run\\(s\\), denying what it guards each time; last failure: .+`,
        ),
      ),
    ]);
    const result = jsonLines(outcome.stdout).at(-1);
    expect(result).toMatchObject({
      status: 'completed',
      hookFailures: [
        {
          hook: 'guard',
          event: 'PreToolUse',
          command: 'echo "guard: cannot load its policy" >&2; exit 3',
          failures: CALLS,
          runs: CALLS,
        },
      ],
    });
    // Denied: none of the guarded calls ran.
    for (let index = 0; index < CALLS; index++)
      expect(existsSync(join(sandbox.project, `ran-${index}.txt`))).toBe(false);
  });

  it('a guard that never fails adds no line and no hookFailures', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', name: 'ok-guard', command: 'true', failClosed: true }] },
        ],
      },
    });
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c0', 'shell', { command: 'touch ran.txt' }),
      say('done'),
    ]);
    const outcome = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'json']),
      { main: BIN, env: sandbox.env },
    );
    expect(outcome.stderr).not.toContain('failClosed hook');
    expect(jsonLines(outcome.stdout).at(-1)).not.toHaveProperty('hookFailures');
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(true);
  });
});
