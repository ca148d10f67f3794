/**
 * Claude Code's `CLAUDE_ENV_FILE`: a file, one per session, whose path Claude Code gives its
 * `SessionStart` hooks; lines a hook appends there (`export NODE_ENV=test`) apply to every later
 * shell command of the session (Claude Code sources the file before each `Bash` call). hookwire
 * does the same for the `SessionStart` hooks of Claude Code files: the file lives in a private
 * temporary directory (mode 0700) made when the session opens with such a hook, and removed when
 * it closes; the shell tool runs its content before each command (`envFilePrefix`), so what it
 * exports applies to that command, in subagents too. What it prints is discarded; a broken line
 * fails the command that follows it, as a broken line in a sourced file would.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookEventName } from '../../../events/index.ts';
import { DIALECTS } from '../dialect.ts';
import type { DialectName } from '../vocabulary.ts';

/** The session's env file and how to remove it. */
export interface ClaudeEnvFile {
  readonly path: string;
  close(): Promise<void>;
}

/** Whether a group list has a hook from a dialect whose tool gives its hooks an env file. */
export function wantsClaudeEnvFile(
  groups: readonly { readonly dialect?: DialectName | undefined }[] | undefined,
): boolean {
  return groups?.some((group) => dialectEnvFile(group.dialect) !== undefined) ?? false;
}

/** The env file a dialect's tool gives one event's hooks (Claude Code's `CLAUDE_ENV_FILE`). */
export function dialectEnvFile(
  dialect: DialectName | undefined,
): { readonly variable: string; readonly event: HookEventName } | undefined {
  return dialect === undefined ? undefined : DIALECTS[dialect].envFile;
}

/** Makes an empty env file in a fresh private directory. */
export async function openClaudeEnvFile(): Promise<ClaudeEnvFile> {
  const directory = await mkdtemp(join(tmpdir(), 'hookwire-claude-env-'));
  const path = join(directory, 'env.sh');
  await writeFile(path, '', { mode: 0o600 });
  return {
    path,
    close: () => rm(directory, { recursive: true, force: true }),
  };
}

/**
 * The shell text to run before a command so the env file's exports apply to it (its output
 * discarded); `''` when the file is empty or gone.
 */
export async function envFilePrefix(path: string): Promise<string> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch {
    return '';
  }
  if (content.trim() === '') return '';
  return `{\n${content}\n} >/dev/null 2>&1\n`;
}
