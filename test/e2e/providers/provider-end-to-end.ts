/**
 * The end-to-end contract every provider passes: the real `hookwire run` process, pointed by
 * `--base-url` at a loopback server that speaks the provider's wire format, with a `PreToolUse`
 * command hook that denies a destructive `shell` call. One suite, one case per provider (see the
 * `*.test.ts` files beside it): each case supplies the provider's replies and says where its
 * wire carries a tool's error back to the model.
 */
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createSandbox,
  readLog,
  runCli,
  writeHookScript,
  writeJson,
  type CliOutcome,
  type Sandbox,
} from '../../cli/support.ts';
import {
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../../support/loopback-server.ts';

/** The id of the tool call every case's first answer makes. */
export const CALL_ID = 'call_shell_1';
/** The command the model asks `shell` to run; the guard hook denies it. */
export const DENIED_COMMAND = 'rm -rf ./precious';
/** The arguments of that call, as the model sends them. */
export const SHELL_ARGUMENTS = { command: DENIED_COMMAND } as const;
/** The reason the guard hook prints on stderr before exiting 2. */
export const DENIAL_REASON = 'policy: rm -rf is not allowed in this project';
/** The API key the runs get (the loopback server accepts anything). */
export const DUMMY_KEY = 'dummy-e2e-key';
/** The model's final answer, after it has seen the denial. */
export const FINAL_TEXT = 'I did not delete anything: the policy forbids rm -rf.';

/** The two answers of a run, in one surface's wire format. */
export interface ScriptedAnswers {
  /** The first answer: one `shell` call with id {@link CALL_ID} and {@link SHELL_ARGUMENTS}. */
  readonly toolCall: ScriptedReply;
  /** The second answer: {@link FINAL_TEXT}, finished normally. */
  readonly finalText: ScriptedReply;
}

/** One provider, as the end-to-end contract drives it. */
export interface ProviderEndToEndCase {
  /** The `--model` spec, e.g. `anthropic:claude-e2e`. */
  readonly modelSpec: string;
  /** The `--base-url` the CLI gets for this server (OpenAI SDKs take `/v1`, others the root). */
  readonly baseURLOf: (server: LoopbackServer) => string;
  /**
   * The variable holding the API key, set to {@link DUMMY_KEY} for the run; `undefined` runs
   * keyless (a local server), where the SDK gets the placeholder `not-needed`.
   */
  readonly keyVariable: string | undefined;
  /** The request header the SDK sends the key in (lower case). */
  readonly keyHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key';
  /** The answers as server-sent events (`--streaming on`) and as JSON bodies (`--streaming off`). */
  readonly streaming: ScriptedAnswers;
  readonly blocking: ScriptedAnswers;
  /** The request path (with query) of each surface, e.g. `/v1/chat/completions`. */
  readonly path: { readonly streaming: string; readonly blocking: string };
  /**
   * Asserts, in the provider's own wire format, that the second request sends the `shell` call
   * back and answers it with a tool error carrying `reason`.
   */
  readonly expectDeniedToolResult: (secondRequestBody: unknown, reason: string) => void;
}

/**
 * Provider variables stripped from every spawn, so the developer's own keys, base URLs or Vertex
 * switch can never leak into a run (nor reach a real API).
 */
const PROVIDER_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GEMINI_BASE_URL',
  'GOOGLE_GENAI_USE_VERTEXAI',
] as const;

/** The sandbox's environment without any provider variable, plus `extra`. */
export function providerEnvironment(
  sandbox: Sandbox,
  extra: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const stripped: readonly string[] = PROVIDER_VARIABLES;
  const env = Object.fromEntries(
    Object.entries(sandbox.env).filter(([name]) => !stripped.includes(name)),
  );
  return { ...env, ...extra };
}

/**
 * The guard: logs its stdin payload as one JSON line to the file given as its argument, then
 * denies (exit 2, reason on stderr) any shell command containing `rm -rf`, and allows the rest.
 */
const GUARD_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
if (String(payload.tool_input?.command ?? '').includes('rm -rf')) {
  process.stderr.write(${JSON.stringify(DENIAL_REASON)} + '\\n');
  process.exit(2);
}
`;

interface Prepared {
  readonly sandbox: Sandbox;
  readonly settingsFile: string;
  readonly hookLog: string;
  /** A directory in the project the denied command would delete. */
  readonly precious: string;
}

/** Sandboxes created by the running test, removed after it. */
const sandboxes: Sandbox[] = [];

async function prepare(): Promise<Prepared> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const hookLog = join(sandbox.root, 'pre-tool-use.jsonl');
  const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD_HOOK, [hookLog]);
  const settingsFile = await writeJson(join(sandbox.root, 'settings.json'), {
    hooks: {
      PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: guard }] }],
    },
  });
  const precious = join(sandbox.project, 'precious');
  await mkdir(precious);
  await writeFile(join(precious, 'keep.txt'), 'still here');
  return { sandbox, settingsFile, hookLog, precious };
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** A failure message that shows what the CLI printed, so a broken run explains itself. */
function describeOutcome(outcome: CliOutcome): string {
  return `exit ${String(outcome.code)}\nstdout: ${outcome.stdout}\nstderr: ${outcome.stderr}`;
}

/** Registers the end-to-end suite for one provider. */
export function describeProviderEndToEnd(
  name: string,
  providerCase: ProviderEndToEndCase,
  missing: {
    /** What is missing, for the test's name: `the API key`, `the server's base URL`. */
    readonly what: string;
    /** The whole stderr line expected: one line naming the variable to set. */
    readonly message: string;
  },
): void {
  describe(`hookwire run --model ${providerCase.modelSpec} (${name}) end to end`, () => {
    let server: LoopbackServer;

    beforeAll(async () => {
      server = await startLoopbackServer();
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => {
      server.reset();
    });
    afterEach(async () => {
      for (const sandbox of sandboxes.splice(0))
        await rm(sandbox.root, { recursive: true, force: true });
    });

    for (const surface of ['streaming', 'blocking'] as const) {
      it(`denies the shell call through the PreToolUse hook and sends the reason back as the tool error (${surface})`, async () => {
        const answers = providerCase[surface];
        server.reply(answers.toolCall, answers.finalText);
        const { sandbox, settingsFile, hookLog, precious } = await prepare();

        const outcome = await runCli(
          [
            'run',
            'Clean up the project',
            '--model',
            providerCase.modelSpec,
            '--base-url',
            providerCase.baseURLOf(server),
            '--settings',
            settingsFile,
            '--cwd',
            sandbox.project,
            '--output-format',
            'json',
            '--streaming',
            surface === 'streaming' ? 'on' : 'off',
          ],
          {
            env: providerEnvironment(
              sandbox,
              providerCase.keyVariable === undefined
                ? {}
                : { [providerCase.keyVariable]: DUMMY_KEY },
            ),
          },
        );

        expect(outcome.code, describeOutcome(outcome)).toBe(0);
        expect(JSON.parse(outcome.stdout)).toMatchObject({
          status: 'completed',
          result: FINAL_TEXT,
          modelCalls: 2,
        });
        expect(await readLog(hookLog)).toEqual([
          expect.objectContaining({
            hook_event_name: 'PreToolUse',
            session_id: expect.any(String) as string,
            tool_name: 'shell',
            tool_input: SHELL_ARGUMENTS,
            cwd: sandbox.project,
          }),
        ]);
        expect(await exists(join(precious, 'keep.txt'))).toBe(true);
        expect(server.requests.map((request: RecordedRequest) => request.path)).toEqual([
          providerCase.path[surface],
          providerCase.path[surface],
        ]);
        expect(server.requests[0]?.headers[providerCase.keyHeader]).toContain(
          providerCase.keyVariable === undefined ? 'not-needed' : DUMMY_KEY,
        );
        providerCase.expectDeniedToolResult(server.requests[1]?.body, DENIAL_REASON);
      });
    }

    const runAgainstServer = async (surface: 'streaming' | 'blocking'): Promise<CliOutcome> => {
      const { sandbox, settingsFile } = await prepare();
      return runCli(
        [
          'run',
          'Clean up the project',
          '--model',
          providerCase.modelSpec,
          '--base-url',
          providerCase.baseURLOf(server),
          '--settings',
          settingsFile,
          '--cwd',
          sandbox.project,
          '--output-format',
          'json',
          '--streaming',
          surface === 'streaming' ? 'on' : 'off',
        ],
        {
          env: providerEnvironment(
            sandbox,
            providerCase.keyVariable === undefined ? {} : { [providerCase.keyVariable]: DUMMY_KEY },
          ),
        },
      );
    };

    for (const surface of ['streaming', 'blocking'] as const) {
      it(`fails the run (exit 1) with a provider error, not a crash or an empty answer, when the server answers a 200 HTML page (${surface})`, async () => {
        server.replyAlways({
          type: 'raw',
          contentType: 'text/html',
          body: '<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>',
        });
        const outcome = await runAgainstServer(surface);
        expect(outcome.code, describeOutcome(outcome)).toBe(1);
        const result = JSON.parse(outcome.stdout) as { status: string; reason?: string };
        expect(result.status).toBe('failed');
        // The OpenAI adapters name what arrived; the Anthropic and Gemini SDKs fail on their own
        // terms (a parse error), which is a failed run too.
        if (providerCase.modelSpec.startsWith('openai'))
          expect(result.reason).toMatch(/HTTP 200 with text\/html/);
        expect(outcome.stdout + outcome.stderr).not.toMatch(/Cannot read properties|\n\s+at /);
      });

      it(`fails the run (exit 1) when the ${surface} call gets the other surface's answer`, async () => {
        const other = surface === 'streaming' ? providerCase.blocking : providerCase.streaming;
        server.replyAlways(other.finalText);
        const outcome = await runAgainstServer(surface);
        expect(outcome.code, describeOutcome(outcome)).toBe(1);
        expect(JSON.parse(outcome.stdout)).toMatchObject({ status: 'failed' });
        expect(outcome.stdout + outcome.stderr).not.toMatch(/Cannot read properties|\n\s+at /);
      });
    }

    it(`exits 1 with a one-line error naming the variable when ${missing.what} is missing`, async () => {
      const { sandbox, settingsFile } = await prepare();

      const outcome = await runCli(
        [
          'run',
          'Clean up the project',
          '--model',
          providerCase.modelSpec,
          '--settings',
          settingsFile,
          '--cwd',
          sandbox.project,
          '--output-format',
          'json',
        ],
        // No provider variable and no --base-url: nothing tells the registry where a keyless server is.
        { env: providerEnvironment(sandbox) },
      );

      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr).toBe(`${missing.message}\n`);
      expect(server.requests).toEqual([]);
    });
  });
}
