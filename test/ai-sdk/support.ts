import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { jsonSchema, tool } from 'ai';
import { afterEach, beforeEach } from 'vitest';

/** A temp project with isolated settings layers and hook scripts. */
export interface AiSdkProject {
  readonly dir: string;
  /** The settings environment that isolates the run from this machine's user/managed layers. */
  readonly env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };
  /** Writes an executable hook script under `hooks/`; returns the command that runs it. */
  script(name: string, body: string): Promise<string>;
  /** Writes a settings file (relative to the project) with these `hooks`; returns its path. */
  settings(file: string, hooks: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function createAiSdkProject(): Promise<AiSdkProject> {
  const dir = await mkdtemp(join(tmpdir(), 'hookwire-ai-sdk-'));
  await mkdir(join(dir, 'hooks'));
  return {
    dir,
    env: {
      HOOKWIRE_HOME: join(dir, 'home'),
      HOOKWIRE_MANAGED_SETTINGS: join(dir, 'no-managed-settings.json'),
    },
    async script(name, body) {
      const file = join(dir, 'hooks', name);
      await writeFile(file, `#!/bin/sh\n${body}\n`);
      await chmod(file, 0o755);
      return `"$HOOKWIRE_PROJECT_DIR/hooks/${name}"`;
    },
    async settings(file, hooks) {
      const path = join(dir, file);
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, JSON.stringify({ hooks }));
      return path;
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `createHookwire` of either entry (`hookwire/ai-sdk`, `hookwire/claude-agent-sdk`). */
type Create<H, O> = (options: O) => Promise<H>;

/** The per-test project and the instance a test opened in it (see `useHookwireFixture`). */
export interface HookwireFixture<H, O> {
  /** This test's project (a fresh temp folder per test). */
  readonly project: AiSdkProject;
  /**
   * Opens an instance in the project (its `cwd`, its isolated settings layers), plus `options`;
   * it is closed after the test.
   */
  readonly open: (options?: Omit<NonNullable<O>, 'cwd' | 'env'>) => Promise<H>;
}

/**
 * The setup every hookwire-in-another-SDK test shares: registers a `beforeEach` that makes a
 * fresh project and an `afterEach` that closes the instance the test opened (SessionEnd, hook
 * processes), runs `cleanup`, then removes the project.
 */
export function useHookwireFixture<H extends { close(): Promise<void> }, O>(
  create: Create<H, O>,
  cleanup?: () => void | Promise<void>,
): HookwireFixture<H, O> {
  let project: AiSdkProject | undefined;
  let opened: H | undefined;
  beforeEach(async () => {
    project = await createAiSdkProject();
  });
  afterEach(async () => {
    try {
      await opened?.close();
      await cleanup?.();
    } finally {
      opened = undefined;
      await project?.close();
      project = undefined;
    }
  });
  const current = (): AiSdkProject => {
    if (project === undefined) throw new Error('the fixture’s project exists only inside a test');
    return project;
  };
  return {
    get project() {
      return current();
    },
    async open(options) {
      const { dir, env } = current();
      opened = await create({ cwd: dir, env, ...options } as unknown as O);
      return opened;
    },
  };
}

/** One settings group of command hooks. */
export function group(
  hooks: readonly Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...extra, hooks: hooks.map((hook) => ({ type: 'command', ...hook })) };
}

export const usage = (input = 10, output = 5): LanguageModelV4GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** A generate result answering `content`. */
export function answer(
  content: LanguageModelV4Content[],
  finish: LanguageModelV4GenerateResult['finishReason']['unified'] = 'stop',
): LanguageModelV4GenerateResult {
  return { content, finishReason: { unified: finish, raw: finish }, usage: usage(), warnings: [] };
}

export const textAnswer = (text: string): LanguageModelV4GenerateResult =>
  answer([{ type: 'text', text }]);

export const toolCallAnswer = (
  toolCallId: string,
  toolName: string,
  input: unknown,
): LanguageModelV4GenerateResult =>
  answer([{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }], 'tool-calls');

/** A stream result streaming `chunks` of text, then finishing. */
export function textStream(chunks: readonly string[]): {
  stream: ReadableStream<LanguageModelV4StreamPart>;
} {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage() },
  ];
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** The tool-result outputs a model call received, in order. */
export function toolOutputsOf(call: LanguageModelV4CallOptions): unknown[] {
  return call.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}

/** The text of the user messages a model call received, in order. */
export function userTextsOf(call: LanguageModelV4CallOptions): string[] {
  return call.prompt.flatMap((message) =>
    message.role === 'user'
      ? [message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ')]
      : [],
  );
}

/** A `read_file` tool that records every input it runs with and answers `content` of the path. */
export function readFileTool(
  ran: unknown[],
  content: (path: string) => string = (path) => `contents of ${path}`,
) {
  return tool({
    description: 'Read a file',
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    execute: async (input: { path: string }) => {
      ran.push(input);
      return { content: content(input.path) };
    },
  });
}
