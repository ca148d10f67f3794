/**
 * The model-side command hooks end to end through `hookwire run`, on both surfaces: a BeforeModel
 * hook that answers instead of the model, a BeforeToolSelection hook whose tool choice reaches the
 * request the model receives, and AfterModel hooks that replace or deny what the model said.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  readLog,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

/** A hook that prints `output` as its JSON answer, ignoring its payload. */
const answering = (output: unknown) =>
  `process.stdin.resume(); process.stdin.on('end', () => process.stdout.write(${JSON.stringify(JSON.stringify(output))}));`;

async function project(hooks: Record<string, unknown>): Promise<Sandbox> {
  const sandbox = await createSandbox();
  const events: Record<string, string[]> = {};
  for (const [event, output] of Object.entries(hooks))
    events[event] = [await writeHookScript(sandbox.root, `${event}.mjs`, answering(output))];
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), settingsWith(events));
  return sandbox;
}

async function run(
  sandbox: Sandbox,
  turns: readonly unknown[],
  surface: string,
  extra: string[] = [],
) {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), turns);
  const outcome = await runCli(
    [
      'run',
      'hello',
      '--model',
      `scripted:${script}`,
      '--cwd',
      sandbox.project,
      '--streaming',
      surface,
      '--output-format',
      'json',
      ...extra,
    ],
    { env: sandbox.env },
  );
  return { ...outcome, result: JSON.parse(outcome.stdout || '{}') as Record<string, unknown> };
}

describe.each([
  { surface: 'on', label: 'streaming' },
  { surface: 'off', label: 'blocking' },
])('model hooks on the $label surface', ({ surface }) => {
  it('a BeforeModel hook that returns llm_response answers instead of the model, which is never called', async () => {
    const sandbox = await project({
      BeforeModel: {
        hookSpecificOutput: {
          llm_response: {
            version: 2,
            content: { speaker: 'ai', blocks: [{ type: 'text', text: 'answered by the hook' }] },
            finishReason: 'stop',
          },
        },
      },
    });
    const record = join(sandbox.root, 'requests.jsonl');
    // An empty script: any model call would fail the run with "no line for call 1".
    const outcome = await run(sandbox, [], surface, ['--record-requests', record]);
    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ status: 'completed', result: 'answered by the hook' });
    expect(await readLog(record)).toEqual([]);
  });

  it('a BeforeToolSelection hook choosing none sends the model no tools; an allowlist sends only those', async () => {
    for (const [toolChoice, expected] of [
      [{ mode: 'none' }, []],
      [{ mode: 'auto', allowedToolNames: ['grep', 'glob'] }, ['glob', 'grep']],
    ] as const) {
      const sandbox = await project({
        BeforeToolSelection: { hookSpecificOutput: { toolChoice } },
      });
      const record = join(sandbox.root, 'requests.jsonl');
      const outcome = await run(sandbox, [say('ok')], surface, ['--record-requests', record]);
      expect(outcome.code).toBe(0);
      const [request] = await readLog(record);
      const tools = (request?.['tools'] as { name: string }[] | undefined) ?? [];
      expect(tools.map((tool) => tool.name)).toEqual(expected);
    }
  });

  it('allowlists of two BeforeToolSelection hooks intersect case-insensitively: Read_File and read_file allow read_file', async () => {
    const sandbox = await createSandbox();
    const hooks = [];
    for (const [index, names] of [
      ['Read_File', 'GLOB'],
      ['read_file', 'glob', 'grep'],
    ].entries())
      hooks.push(
        await writeHookScript(
          sandbox.root,
          `select-${index}.mjs`,
          answering({
            hookSpecificOutput: { toolChoice: { mode: 'auto', allowedToolNames: names } },
          }),
        ),
      );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ BeforeToolSelection: hooks }),
    );
    const record = join(sandbox.root, 'requests.jsonl');
    const outcome = await run(sandbox, [say('ok')], surface, ['--record-requests', record]);
    expect(outcome.code).toBe(0);
    const [request] = await readLog(record);
    const tools = (request?.['tools'] as { name: string }[] | undefined) ?? [];
    expect(tools.map((tool) => tool.name).sort()).toEqual(['glob', 'read_file']);
  });

  it('an AfterModel hook that denies aborts the turn without running the tool it asked for', async () => {
    const sandbox = await project({ AfterModel: { decision: 'deny', reason: 'output withheld' } });
    const outcome = await run(
      sandbox,
      [callTool('call_1', 'write_file', { path: 'x.txt', content: 'x' })],
      surface,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.result).toMatchObject({ status: 'stopped' });
    expect(outcome.result['reason']).toContain('output withheld');
    expect(existsSync(join(sandbox.project, 'x.txt'))).toBe(false);
  });
});

describe('AfterModel replacement', () => {
  it('replaces the response the agent keeps on the blocking surface', async () => {
    const sandbox = await project({
      AfterModel: {
        hookSpecificOutput: {
          llm_response: {
            content: { speaker: 'ai', blocks: [{ type: 'text', text: '[redacted]' }] },
            finishReason: 'stop',
          },
        },
      },
    });
    const outcome = await run(sandbox, [say('my password is hunter2')], 'off');
    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ status: 'completed', result: '[redacted]' });
  });
});

it('on the streaming surface an AfterModel hook rewrites each chunk it is given, so a redaction hook edits the streamed answer', async () => {
  const sandbox = await createSandbox();
  // Redacts a secret inside whichever chunk carries it; chunks without it pass unchanged.
  const redact = await writeHookScript(
    sandbox.root,
    'redact.mjs',
    `import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
const blocks = payload.llm_response.content.blocks;
if (blocks.some((block) => block.type === 'text' && block.text.includes('hunter2'))) {
  const content = { speaker: 'ai', blocks: blocks.map((block) => block.type === 'text' ? { ...block, text: block.text.replaceAll('hunter2', '*******') } : block) };
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { llm_response: { content } } }));
}`,
  );
  await writeJson(
    join(sandbox.project, '.hookwire', 'settings.json'),
    settingsWith({ AfterModel: [redact] }),
  );
  const outcome = await run(sandbox, [say('my password is hunter2 ok')], 'on');
  expect(outcome.code).toBe(0);
  expect(outcome.result).toMatchObject({
    status: 'completed',
    result: 'my password is ******* ok',
  });
});
