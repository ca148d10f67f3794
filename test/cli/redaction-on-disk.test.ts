/**
 * What a redacting hook removed stays off the disk, through the real CLI (the sources and the
 * built bin): a Gemini CLI `AfterModel` hook (`.gemini/settings.json`) redacts an `sk_live_…` key
 * from the model's answer, and a `PostToolUse` hook redacts another from a tool's result. After
 * the run, no file of the session directory, nor the `hookwire trace` page, nor the spans the
 * OTLP exporter sent hold either key; with `--record-payloads` (SENSITIVE) the transcript keeps
 * them, which shows the search can find them.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  MAIN,
  REPOSITORY,
  createSandbox,
  runCli,
  say,
  scriptedRunArgs,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const ENTRIES: readonly (readonly [string, string])[] = [
  ['sources', MAIN],
  ...(existsSync(BIN) ? [['built bin', BIN] as const] : []),
];

const ANSWER_KEY = 'sk_live_answer4242424242';
const RESULT_KEY = 'sk_live_result4242424242';
// Each case runs the CLI (with three hook processes) and then `hookwire trace`, once or twice.
const SLOW = 180_000;

/** Gemini CLI's AfterModel redactor: rewrites candidates[].content.parts. */
const AFTER_MODEL = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const candidates = input.llm_response.candidates.map((candidate) => ({
  ...candidate,
  content: { ...candidate.content, parts: candidate.content.parts.map((part) => part.replace(/sk_live_[A-Za-z0-9]+/g, '[REDACTED]')) },
}));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { ...input.llm_response, candidates } } }));
`;

/** A PostToolUse redactor: the tool's result with every sk_live_ key replaced. */
const POST_TOOL_USE = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const redacted = JSON.parse(JSON.stringify(input.tool_response).replace(/sk_live_[A-Za-z0-9]+/g, '[REDACTED]'));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: redacted } }));
`;

/** Every file under `directory` (recursively), read as text. */
async function filesUnder(directory: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, await readFile(path, 'utf8'));
    }
  return files;
}

/** The files of `files` whose text holds `secret`. */
const holding = (files: Map<string, string>, secret: string): string[] =>
  [...files].filter(([, text]) => text.includes(secret)).map(([path]) => path);

/** A loopback OTLP/HTTP receiver keeping every request body as text. */
async function otlpReceiver(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

async function redactingRun(main: string, sandbox: Sandbox, extra: readonly string[]) {
  const receiver = await otlpReceiver();
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    {
      blocks: [
        { type: 'text', text: `Your key is ${ANSWER_KEY}; reading the config.` },
        { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'cat config.env' } },
      ],
      finishReason: 'tool_calls',
    },
    say('Done.'),
  ]);
  const outcome = await runCli(
    scriptedRunArgs(script, sandbox.project, [
      '--output-format',
      'json',
      '--streaming',
      'off',
      '--otel',
      ...extra,
    ]),
    { env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, main },
  );
  expect(outcome.code, outcome.stderr).toBe(0);
  const sessionId = (JSON.parse(outcome.stdout) as { sessionId: string }).sessionId;
  const trace = join(sandbox.root, `${sessionId}.trace.html`);
  const traced = await runCli(['trace', sessionId, '--cwd', sandbox.project, '--out', trace], {
    env: sandbox.env,
    main,
  });
  expect(traced.code, traced.stderr).toBe(0);
  const sessions = await filesUnder(join(sandbox.project, '.hookwire', 'sessions'));
  return { sessions, trace: await readFile(trace, 'utf8'), spans: receiver.bodies.join('\n') };
}

async function redactingProject(sandbox: Sandbox): Promise<void> {
  await writeFile(join(sandbox.project, 'config.env'), `STRIPE_KEY=${RESULT_KEY}\n`);
  await writeJson(join(sandbox.project, '.gemini', 'settings.json'), {
    hooks: {
      AfterModel: [
        {
          hooks: [
            {
              type: 'command',
              command: await writeHookScript(sandbox.root, 'after-model.mjs', AFTER_MODEL),
            },
          ],
        },
      ],
    },
  });
  await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
    hooks: {
      PostToolUse: [
        {
          matcher: 'shell',
          hooks: [
            {
              type: 'command',
              command: await writeHookScript(sandbox.root, 'post-tool.mjs', POST_TOOL_USE),
            },
          ],
        },
      ],
    },
  });
}

describe.each(ENTRIES)('redacted secrets on disk (%s)', (_, main) => {
  it(
    'no session file, trace page or span holds what the hooks redacted',
    async () => {
      const sandbox = await createSandbox();
      await redactingProject(sandbox);
      const { sessions, trace, spans } = await redactingRun(main, sandbox, []);

      const transcript = [...sessions.values()].join('\n');
      // The hooks ran and redacted: their output is what was recorded.
      expect(transcript).toContain('Your key is [REDACTED]; reading the config.');
      expect(transcript).toContain('STRIPE_KEY=[REDACTED]');
      expect(transcript).toContain('"type":"hook-run"');
      expect(spans).toContain('hookwire.hook');
      for (const secret of [ANSWER_KEY, RESULT_KEY]) {
        expect(holding(sessions, secret)).toEqual([]);
        expect(trace).not.toContain(secret);
        expect(spans).not.toContain(secret);
      }
    },
    SLOW,
  );

  it(
    '--record-payloads keeps them (SENSITIVE), so the search above can see them',
    async () => {
      const sandbox = await createSandbox();
      await redactingProject(sandbox);
      const { sessions } = await redactingRun(main, sandbox, ['--record-payloads']);
      expect(holding(sessions, ANSWER_KEY)).toHaveLength(1);
      expect(holding(sessions, RESULT_KEY)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'so does "recordPayloads": true in the user settings, and not in a project file',
    async () => {
      const sandbox = await createSandbox();
      await redactingProject(sandbox);
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        recordPayloads: true,
      });
      const fromProject = await redactingRun(main, sandbox, []);
      expect(holding(fromProject.sessions, ANSWER_KEY)).toEqual([]);

      const user = join(sandbox.home, '.hookwire', 'settings.json');
      const settings = JSON.parse(await readFile(user, 'utf8')) as Record<string, unknown>;
      await writeJson(user, { ...settings, recordPayloads: true });
      const fromUser = await redactingRun(main, sandbox, []);
      expect(holding(fromUser.sessions, ANSWER_KEY)).toHaveLength(1);
    },
    SLOW,
  );
});
