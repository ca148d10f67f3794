/**
 * The Claude Agent SDK bridge end to end: `query()` of the real `@anthropic-ai/claude-agent-sdk`
 * runs the real Claude Code CLI it ships (the platform binary of
 * `@anthropic-ai/claude-agent-sdk-<platform>-<arch>`), pointed at a loopback Anthropic Messages
 * API server (`ANTHROPIC_BASE_URL`, a dummy `ANTHROPIC_API_KEY`, an empty `HOME`), with
 * `options.hooks` from `toClaudeAgentHooks(hw)`. The scripted server answers the prompt with a
 * Bash `tool_use`; a hookwire settings-file guard (a command hook on `shell`) must deny it: the
 * command's marker file is never created, and the denial is in the next request the server gets.
 * A control run without the guard proves the CLI really runs that Bash command.
 *
 * The CLI needs no network or login here (the API key and base URL are all it asks for). Where
 * the SDK's binary for this platform is not installed (npm skips optional dependencies for other
 * platforms) or does not start, the tests are skipped, and the skip says which check failed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookwire, toClaudeAgentHooks } from '../../src/claude-agent-sdk.ts';
import { group, useHookwireFixture } from '../ai-sdk/support.ts';
import { messageStream } from '../support/real-agents/anthropic-mock.ts';
import {
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
} from '../support/loopback-server.ts';

/** The SDK's Claude Code binary for this machine, or why there is none that runs. */
function locateClaudeCli(): { path: string } | { skip: string } {
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
    ?.glibcVersionRuntime;
  const platform = `${process.platform}-${process.arch}${process.platform === 'linux' && glibc === undefined ? '-musl' : ''}`;
  const name = `@anthropic-ai/claude-agent-sdk-${platform}`;
  const fromSdk = createRequire(
    createRequire(import.meta.url).resolve('@anthropic-ai/claude-agent-sdk'),
  );
  let packageJson: string;
  try {
    packageJson = fromSdk.resolve(`${name}/package.json`);
  } catch {
    return { skip: `${name} (the SDK's Claude Code binary for ${platform}) is not installed` };
  }
  const path = join(dirname(packageJson), process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (!existsSync(path)) return { skip: `${path} does not exist` };
  try {
    const version = execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    if (!version.includes('Claude Code')) return { skip: `${path} --version printed ${version}` };
  } catch (error) {
    return { skip: `${path} --version failed: ${(error as Error).message.split('\n')[0]}` };
  }
  return { path };
}

const cli = locateClaudeCli();
const skip = 'skip' in cli ? cli.skip : undefined;

let server: LoopbackServer;
const fixture = useHookwireFixture(createHookwire, () => {
  server.reset();
});

beforeAll(async () => {
  server = await startLoopbackServer();
});

afterAll(async () => {
  await server.close();
});

interface MessagesBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly name: string }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

/** The `tool_result` blocks of a request's last message. */
function toolResultsOf(request: RecordedRequest): { content: unknown; is_error?: boolean }[] {
  const last = (request.body as MessagesBody).messages.at(-1);
  return Array.isArray(last?.content)
    ? (last.content as { type: string; content: unknown; is_error?: boolean }[]).filter(
        (part) => part.type === 'tool_result',
      )
    : [];
}

const isMessages = (request: RecordedRequest): boolean =>
  request.method === 'POST' &&
  request.path.startsWith('/v1/messages') &&
  !request.path.includes('count_tokens');

/** A request of the agent's own loop (it offers the Bash tool). */
const offersBash = (request: RecordedRequest): boolean =>
  isMessages(request) &&
  ((request.body as MessagesBody).tools ?? []).some((tool) => tool.name === 'Bash');

/**
 * The scripted model: a request offering Bash that does not answer a tool call yet gets a Bash
 * `tool_use` running `command`; anything else (the turn after the tool result, side requests)
 * gets a short text answer.
 */
function scriptBash(command: string): void {
  server.replyWith((request) => {
    if (!isMessages(request))
      return {
        type: 'json',
        status: 404,
        body: { type: 'error', error: { type: 'not_found_error', message: request.path } },
      };
    const body = request.body as MessagesBody;
    if (offersBash(request) && toolResultsOf(request).length === 0)
      return messageStream(
        body.model,
        {
          type: 'tool_use',
          id: 'toolu_e2e_1',
          name: 'Bash',
          input: { command, description: 'Create the marker file' },
        },
        `msg_${server.requests.length}`,
      );
    return messageStream(
      body.model,
      { type: 'text', text: 'Finished.' },
      `msg_${server.requests.length}`,
    );
  });
}

/** Runs one prompt through the real CLI with `hooks`; returns every SDK message. */
async function runAgent(
  hooks: ReturnType<typeof toClaudeAgentHooks>,
  cwd: string,
): Promise<SDKMessage[]> {
  if (!('path' in cli)) throw new Error('unreachable: the tests are skipped without the CLI');
  const messages: SDKMessage[] = [];
  const stderr: string[] = [];
  const temp = join(cwd, 'tmp');
  await mkdir(temp, { recursive: true });
  const abort = new AbortController();
  const deadline = setTimeout(() => {
    abort.abort();
  }, 90_000);
  try {
    for await (const message of query({
      prompt: 'Create the marker file.',
      options: {
        cwd,
        pathToClaudeCodeExecutable: cli.path,
        abortController: abort,
        // Only what the CLI needs: the loopback API, a dummy key, an empty home, and a temp
        // folder inside the project (the CLI keeps per-project state there; removed with it).
        env: {
          PATH: process.env.PATH ?? '',
          HOME: join(cwd, 'home'),
          TMPDIR: temp,
          CLAUDE_CODE_TMPDIR: temp,
          CLAUDE_CONFIG_DIR: join(cwd, 'home', '.claude'),
          ANTHROPIC_BASE_URL: server.origin,
          ANTHROPIC_API_KEY: 'sk-ant-loopback-test',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
        },
        settingSources: [],
        // Bash is pre-approved, so only a hook can stop it (the control run shows it runs).
        allowedTools: ['Bash'],
        maxTurns: 3,
        model: 'claude-sonnet-4-5',
        hooks,
        stderr: (data) => stderr.push(data),
      },
    }))
      messages.push(message);
  } catch (error) {
    throw new Error(`the Claude Code CLI failed: ${(error as Error).message}\n${stderr.join('')}`, {
      cause: error,
    });
  } finally {
    clearTimeout(deadline);
  }
  return messages;
}

describe.skipIf(skip !== undefined)(
  `the Claude Agent SDK's real CLI with toClaudeAgentHooks${skip === undefined ? '' : ` (skipped: ${skip})`}`,
  () => {
    it('a hookwire settings-file guard on `shell` denies the Bash call the model makes: no marker, the denial in the next request', async () => {
      const { dir } = fixture.project;
      const marker = join(dir, 'marker');
      const seen = join(dir, 'guard-input.json');
      const guard = await fixture.project.script(
        'guard.sh',
        `cat > "${seen}"; echo "hookwire guard: no shell commands in this project" >&2; exit 2`,
      );
      const settings = await fixture.project.settings('hooks.json', {
        PreToolUse: [group([{ command: guard }], { matcher: 'shell' })],
      });
      const hw = await fixture.open({ settings: [settings] });
      scriptBash(`touch ${marker}`);

      const messages = await runAgent(toClaudeAgentHooks(hw), dir);

      expect(existsSync(marker)).toBe(false);
      // The guard ran on hookwire's names for Claude's Bash, in the agent's session.
      const payload = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>;
      const init = messages.find((message) => message.type === 'system');
      expect(payload).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'shell',
        tool_input: { command: `touch ${marker}` },
        session_id: init?.session_id,
      });
      // The agent's next request after the Bash tool_use carries the denial as its error result.
      const agentCalls = server.requests.filter(offersBash);
      expect(agentCalls.length).toBeGreaterThanOrEqual(2);
      expect(toolResultsOf(agentCalls[0]!)).toEqual([]);
      const [result, ...more] = toolResultsOf(agentCalls[1]!);
      expect(more).toEqual([]);
      expect(result?.is_error).toBe(true);
      expect(JSON.stringify(result?.content)).toContain('no shell commands in this project');
      const last = messages.at(-1);
      expect(last).toMatchObject({ type: 'result', subtype: 'success' });
    }, 120_000);

    it('control: without the guard the same CLI run executes the Bash command', async () => {
      const { dir } = fixture.project;
      const marker = join(dir, 'marker');
      const hw = await fixture.open({});
      scriptBash(`touch ${marker}`);

      await runAgent(toClaudeAgentHooks(hw), dir);

      expect(existsSync(marker)).toBe(true);
      const [result] = toolResultsOf(server.requests.filter(offersBash)[1]!);
      expect(result).toBeDefined();
      expect(result?.is_error).not.toBe(true);
    }, 120_000);
  },
);
