/**
 * The lifecycle of the design brief, end to end through `hookwire run`: real hook processes on
 * every event append their payload to a log, and each scenario reads the order back from it. Every
 * scenario runs on the streaming and on the blocking surface (`--streaming on|off`).
 */
import { readFileSync, watch } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { canonicalEventName } from '../../src/events/index.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  callTool,
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

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'StopFailure',
  'Interrupt',
  'Notification',
  'SessionEnd',
] as const;

/** Logs its payload, then blocks the first Stop of a turn (not the continued one). */
const STOP_ONCE_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
if (!payload.stop_hook_active) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'check once more' }));
}
`;

interface Scenario {
  readonly sandbox: Sandbox;
  readonly log: string;
  readonly settings: string;
}

/** A project whose settings put a logging hook on every event and the stop-once hook on Stop. */
async function scenario(): Promise<Scenario> {
  const sandbox = await createSandbox();
  const log = join(sandbox.root, 'events.jsonl');
  const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
  const stopOnce = await writeHookScript(sandbox.root, 'stop-once.mjs', STOP_ONCE_HOOK, [log]);
  const hooks: Record<string, unknown> = {};
  for (const event of EVENTS) hooks[event] = [{ hooks: [{ type: 'command', command: logger }] }];
  hooks['Stop'] = [{ hooks: [{ type: 'command', command: stopOnce }] }];
  const settings = await writeJson(join(sandbox.root, 'settings.json'), { hooks });
  return { sandbox, log, settings };
}

function runArgs(
  context: Scenario,
  script: string,
  surface: string,
  extra: readonly string[] = [],
): string[] {
  return [
    'run',
    'do the work',
    '--model',
    `scripted:${script}`,
    '--settings',
    context.settings,
    '--cwd',
    context.sandbox.project,
    '--streaming',
    surface,
    ...extra,
  ];
}

const schemaValidator = new Ajv2020({ strict: false, allErrors: true });

/** Every payload a hook received validates against the committed JSON Schema of its event. */
function expectPayloadsMatchSchemas(entries: readonly Record<string, unknown>[]): void {
  for (const entry of entries) {
    const event = canonicalEventName(String(entry['hook_event_name']));
    expect(event).toBeDefined();
    const file = new URL(`../../schemas/hook-input.${String(event)}.schema.json`, import.meta.url);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
    const validate =
      schemaValidator.getSchema(file.href) ??
      schemaValidator.compile({ ...schema, $id: file.href });
    const valid = validate(entry);
    expect(valid ? [] : validate.errors, `${String(event)} payload`).toEqual([]);
  }
}

const names = (entries: readonly Record<string, unknown>[]): unknown[] =>
  entries.map((entry) => entry['hook_event_name']);

describe.each([
  { surface: 'on', label: 'streaming' },
  { surface: 'off', label: 'blocking' },
])('hookwire run lifecycle on the $label surface', ({ surface }) => {
  it('fires every event of a completed turn in order, and a blocking Stop continues the turn exactly once', async () => {
    const context = await scenario();
    await writeFile(join(context.sandbox.project, 'present.txt'), 'hello\n');
    const script = await writeScript(join(context.sandbox.root, 'model.jsonl'), [
      {
        blocks: [
          {
            type: 'tool_call',
            id: 'call_1',
            name: 'read_file',
            parameters: { path: 'present.txt' },
          },
          {
            type: 'tool_call',
            id: 'call_2',
            name: 'read_file',
            parameters: { path: 'missing.txt' },
          },
        ],
        finishReason: 'tool_calls',
      },
      say('first answer'),
      say('checked again: final answer'),
    ]);

    const outcome = await runCli(runArgs(context, script, surface, ['--output-format', 'json']), {
      env: context.sandbox.env,
    });

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({
      status: 'completed',
      result: 'checked again: final answer',
      modelCalls: 3,
    });
    const log = await readLog(context.log);
    expectPayloadsMatchSchemas(log);
    const events = names(log);
    expect(events[0]).toBe('SessionStart');
    expect(events[1]).toBe('UserPromptSubmit');
    expect(events.at(-1)).toBe('SessionEnd');
    // One BeforeModel and one BeforeToolSelection per model call; AfterModel at least once per call.
    expect(events.filter((name) => name === 'BeforeModel')).toHaveLength(3);
    expect(events.filter((name) => name === 'BeforeToolSelection')).toHaveLength(3);
    expect(events.filter((name) => name === 'AfterModel').length).toBeGreaterThanOrEqual(3);
    expect(
      log
        .filter((entry) => entry['hook_event_name'] === 'PreToolUse')
        .map((entry) => entry['tool_call_id'])
        .sort(),
    ).toEqual(['call_1', 'call_2']);
    expect(log.filter((entry) => entry['hook_event_name'] === 'PostToolUse')).toMatchObject([
      { tool_call_id: 'call_1', tool_response: 'hello\n' },
    ]);
    expect(log.filter((entry) => entry['hook_event_name'] === 'PostToolUseFailure')).toMatchObject([
      { tool_call_id: 'call_2', error: expect.stringContaining('missing.txt') as string },
    ]);
    const stops = log.filter((entry) => entry['hook_event_name'] === 'Stop');
    expect(stops).toMatchObject([
      { stop_hook_active: false, prompt: 'do the work', prompt_response: 'first answer' },
      { stop_hook_active: true, prompt_response: 'checked again: final answer' },
    ]);
    // Stop never fires after the step that called tools: the first Stop follows the second model call.
    expect(events.indexOf('Stop')).toBeGreaterThan(events.lastIndexOf('PostToolUseFailure'));
    expect(events).not.toContain('StopFailure');
    expect(events).not.toContain('Interrupt');
    expect(log.find((entry) => entry['hook_event_name'] === 'SessionStart')).toMatchObject({
      source: 'startup',
    });
    expect(log.at(-1)).toMatchObject({ reason: 'exit' });
  });

  it('fires StopFailure and not Stop when the answer is safety-filtered, and exits 1', async () => {
    const context = await scenario();
    const script = await writeScript(join(context.sandbox.root, 'model.jsonl'), [
      say('I cannot help with that', 'safety'),
    ]);

    const outcome = await runCli(runArgs(context, script, surface, ['--output-format', 'json']), {
      env: context.sandbox.env,
    });

    expect(outcome.code).toBe(1);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ status: 'failed' });
    const log = await readLog(context.log);
    expectPayloadsMatchSchemas(log);
    const events = names(log);
    expect(events).toContain('StopFailure');
    expect(events).not.toContain('Stop');
    expect(events.at(-1)).toBe('SessionEnd');
  });

  it('fires a budget_exhausted Notification when the model-call budget runs out, and exits 1', async () => {
    const context = await scenario();
    const script = await writeScript(join(context.sandbox.root, 'model.jsonl'), [
      callTool('call_1', 'glob', { pattern: '*' }),
      say('never reached'),
    ]);

    const outcome = await runCli(
      runArgs(context, script, surface, ['--output-format', 'json', '--max-model-calls', '1']),
      { env: context.sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ status: 'budget_exhausted', modelCalls: 1 });
    const log = await readLog(context.log);
    expect(log.filter((entry) => entry['hook_event_name'] === 'Notification')).toMatchObject([
      { notification_type: 'budget_exhausted' },
    ]);
    expect(names(log)).not.toContain('Stop');
  });

  it('cancels the turn on SIGINT: Interrupt fires, never Stop, the session closes and the exit status is 130', async () => {
    const context = await scenario();
    const script = await writeScript(join(context.sandbox.root, 'model.jsonl'), [
      { ...(say('too slow') as object), delayMs: 60_000 },
    ]);
    let interrupted = false;

    const outcome = await runCli(
      runArgs(context, script, surface, ['--output-format', 'stream-json']),
      {
        env: context.sandbox.env,
        onLine(line, child) {
          // The model call has started once its BeforeModel hook ran: interrupt it there.
          const event = JSON.parse(line) as { type: string; event?: string };
          if (!interrupted && event.type === 'hook-run' && event.event === 'BeforeModel') {
            interrupted = true;
            child.kill('SIGINT');
          }
        },
      },
    );

    expect(interrupted).toBe(true);
    // The model call takes 60 s, past the test's timeout: only the interruption ends it in time.
    expect(outcome.code).toBe(130);
    const lines = jsonLines(outcome.stdout);
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'cancelled' });
    const events = names(await readLog(context.log));
    expect(events).toContain('Interrupt');
    expect(events).not.toContain('Stop');
    expect(events).not.toContain('AfterModel');
    expect(events.at(-1)).toBe('SessionEnd');
  });

  it('exits 130 at once on a second SIGINT, without waiting for the session to close', async () => {
    const context = await scenario();
    const marker = join(context.sandbox.root, 'interrupt-started');
    // An Interrupt hook that announces itself, then takes longer than anyone wants to wait.
    const slowInterrupt = await writeHookScript(
      context.sandbox.root,
      'slow-interrupt.mjs',
      `import { writeFileSync } from 'node:fs'; writeFileSync(process.argv[2], 'started'); setTimeout(() => {}, 3000);`,
      [marker],
    );
    await writeJson(context.settings, {
      hooks: {
        BeforeModel: [
          {
            hooks: [
              {
                type: 'command',
                command: await writeHookScript(context.sandbox.root, 'logger.mjs', LOGGER_HOOK, [
                  context.log,
                ]),
              },
            ],
          },
        ],
        Interrupt: [{ hooks: [{ type: 'command', command: slowInterrupt }] }],
        SessionEnd: [
          {
            hooks: [
              {
                type: 'command',
                command: await writeHookScript(context.sandbox.root, 'logger.mjs', LOGGER_HOOK, [
                  context.log,
                ]),
              },
            ],
          },
        ],
      },
    });
    const script = await writeScript(join(context.sandbox.root, 'model.jsonl'), [
      { ...(say('too slow') as object), delayMs: 60_000 },
    ]);
    const watcher = watch(context.sandbox.root);
    let sent = 0;

    const outcome = await runCli(
      runArgs(context, script, surface, ['--output-format', 'stream-json']),
      {
        env: context.sandbox.env,
        onLine(line, child) {
          const event = JSON.parse(line) as { type: string; event?: string };
          if (sent > 0 || event.type !== 'hook-run' || event.event !== 'BeforeModel') return;
          sent = 1;
          watcher.on('change', (_type, file) => {
            if (file === 'interrupt-started' && sent === 1) {
              sent = 2;
              child.kill('SIGINT');
            }
          });
          child.kill('SIGINT');
        },
      },
    );
    watcher.close();

    expect(sent).toBe(2);
    expect(outcome.code).toBe(130);
    expect(jsonLines(outcome.stdout).some((line) => line['type'] === 'result')).toBe(false);
    expect(names(await readLog(context.log))).not.toContain('SessionEnd');
  });
});
