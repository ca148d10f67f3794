/**
 * Signals and exit statuses of `hookwire run`, end to end: SIGTERM and SIGHUP cancel like SIGINT
 * (Interrupt and SessionEnd hooks fire, as their log shows; the transcript is closed and readable;
 * the status is 143 / 129), and a slow closing hook or a Ctrl-C during a hanging hook never ends
 * the process with Node's "unsettled top-level await" status 13.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForFile } from '../../src/supervision/command-runner.contract.ts';
import {
  LOGGER_HOOK,
  createSandbox,
  jsonLines,
  readLog,
  runCli,
  say,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => rm(s.root, { recursive: true, force: true })));
});

async function sandbox(): Promise<Sandbox> {
  const created = await createSandbox();
  sandboxes.push(created);
  return created;
}

const eventsOf = (entries: readonly Record<string, unknown>[]): unknown[] =>
  entries.map((entry) => entry['hook_event_name']);

/** Every transcript line parses, and the last one records the session's end. */
async function expectClosedTranscript(project: string): Promise<void> {
  const directory = join(project, '.hookwire', 'sessions');
  const files = (await readdir(directory)).filter((file) => file.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  const lines = (await readFile(join(directory, files[0] ?? ''), 'utf8')).trim().split('\n');
  const records = lines.map((line) => JSON.parse(line) as { type: string });
  expect(records.at(-1)?.type).toBe('session-end');
}

describe('hookwire run: signals and exit statuses', () => {
  for (const [signal, status] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`cancels on ${signal} like Ctrl-C: Interrupt and SessionEnd fire, the transcript is closed, exit ${status}`, async () => {
      const box = await sandbox();
      const log = join(box.root, 'events.jsonl');
      const logger = await writeHookScript(box.root, 'logger.mjs', LOGGER_HOOK, [log]);
      const settings = await writeJson(join(box.root, 'settings.json'), {
        hooks: Object.fromEntries(
          ['BeforeModel', 'Interrupt', 'Stop', 'SessionEnd'].map((event) => [
            event,
            [{ hooks: [{ type: 'command', command: logger }] }],
          ]),
        ),
      });
      const script = await writeScript(join(box.root, 'model.jsonl'), [
        { ...(say('too slow') as object), delayMs: 60_000 },
      ]);
      let sent = false;
      const outcome = await runCli(
        [
          'run',
          'do the work',
          '--model',
          `scripted:${script}`,
          '--settings',
          settings,
          '--cwd',
          box.project,
          '--output-format',
          'stream-json',
        ],
        {
          env: box.env,
          onLine(line, child) {
            // The model call has started once its BeforeModel hook ran: signal it there.
            const event = JSON.parse(line) as { type: string; event?: string };
            if (!sent && event.type === 'hook-run' && event.event === 'BeforeModel') {
              sent = true;
              child.kill(signal);
            }
          },
        },
      );
      expect(sent).toBe(true);
      expect(outcome.signal).toBeNull();
      expect(outcome.code).toBe(status);
      expect(jsonLines(outcome.stdout).at(-1)).toMatchObject({
        type: 'result',
        status: 'cancelled',
      });
      const events = eventsOf(await readLog(log));
      expect(events).toEqual(['BeforeModel', 'Interrupt', 'SessionEnd']);
      await expectClosedTranscript(box.project);
    }, 60_000);
  }

  it('exits 0 without a warning when a completed run has a SessionEnd hook slower than its budget', async () => {
    const box = await sandbox();
    const settings = await writeJson(join(box.root, 'settings.json'), {
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'sleep 600' }] }] },
    });
    const script = await writeScript(join(box.root, 'model.jsonl'), [say('done')]);
    const outcome = await runCli(
      ['run', 'hi', '--model', `scripted:${script}`, '--settings', settings, '--cwd', box.project],
      { env: box.env },
    );
    expect(outcome.stderr).not.toMatch(/unsettled top-level await/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('done\n');
    // The closing-hook budget (1.5 s) bounds the wait, not the hook's 600 s: past the test's
    // timeout, so a run that waited for the hook fails it (no wall-clock bound needed).
    await expectClosedTranscript(box.project);
  }, 60_000);

  it('exits 130 without a warning on Ctrl-C while a hook hangs', async () => {
    const box = await sandbox();
    const marker = join(box.root, 'hanging');
    const hanging = await writeHookScript(
      box.root,
      'hang.mjs',
      `import { writeFileSync } from 'node:fs'; writeFileSync(process.argv[2], 'started'); setInterval(() => {}, 1000);`,
      [marker],
    );
    const settings = await writeJson(join(box.root, 'settings.json'), {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hanging }] }] },
    });
    const script = await writeScript(join(box.root, 'model.jsonl'), [say('done')]);
    const outcome = await runCli(
      ['run', 'hi', '--model', `scripted:${script}`, '--settings', settings, '--cwd', box.project],
      {
        env: box.env,
        onSpawn(child) {
          void waitForFile(marker).then(() => child.kill('SIGINT'));
        },
      },
    );
    expect(outcome.stderr).not.toMatch(/unsettled top-level await/);
    expect(outcome.code).toBe(130);
    await expectClosedTranscript(box.project);
  }, 60_000);
});
