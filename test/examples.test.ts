import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';

const run = promisify(execFile);
let home = '';
afterEach(async () => {
  if (home !== '') await rm(home, { recursive: true, force: true });
});

it('the in-process example composes its guard with a command hook and answers', async () => {
  home = await mkdtemp(join(tmpdir(), 'hookwire-example-home-'));
  const { stdout } = await run(process.execPath, ['examples/in-process.ts'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HOOKWIRE_HOME: home,
      HOOKWIRE_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
    },
  });
  expect(stdout).toBe(
    'tool result: reading .env files is not allowed\nanswer: I may not read .env, so I did not.\n',
  );
});

it('the AI SDK example: the settings-file guard denies, the in-process hook caps what the model sees', async () => {
  home = await mkdtemp(join(tmpdir(), 'hookwire-example-home-'));
  const { stdout } = await run(process.execPath, ['examples/ai-sdk/app.ts'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HOOKWIRE_HOME: home,
      HOOKWIRE_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
    },
  });
  expect(stdout).toBe(
    'commands run: ls build\n' +
      'answer: Denied: "rm -rf build" is destructive; ask the user to run it themselves. ' +
      'Listing: ls build: artifact.o artifact.o artifact… (truncated)\n',
  );
});
