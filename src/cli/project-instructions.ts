/**
 * Project instructions: the Markdown files in which agents' users keep standing instructions for
 * them, read the way the agents they come from read them, and added to the main agent's system
 * prompt by `hookwire run` (see `system-prompt.ts`; decision 0027).
 *
 * | scope   | files (in this order; `~` = `HOOKWIRE_HOME`, default the home directory)      |
 * | ------- | ----------------------------------------------------------------------------- |
 * | user    | `~/.hookwire/AGENTS.md`, `~/.claude/CLAUDE.md`, `~/.gemini/GEMINI.md`         |
 * | project | `<project>/AGENTS.md`, `<project>/CLAUDE.md`, `<project>/GEMINI.md`           |
 *
 * `CLAUDE.md` and `GEMINI.md` are read only with the dialects (`--no-dialects` reads neither).
 * Each file is bounded (`INSTRUCTION_FILE_LIMIT_BYTES`; the rest is cut with a note) and so is
 * their sum (`INSTRUCTIONS_LIMIT_BYTES`). A file that is the same file as one read before (a
 * symbolic link `CLAUDE.md → AGENTS.md`) or holds the same text is read once.
 *
 * A project's files are untrusted input, like its hooks: they are sent only once trusted
 * (`hookwire hooks trust` records the fingerprint of the text that would be sent; any change
 * untrusts it) or with `--trust-project`. The user's own files need no trust.
 */
import { open, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { trustFingerprint } from '../hook-kinds/settings/hook-identity.ts';
import type { HookTrust } from '../hook-kinds/settings/index.ts';

/** The most bytes of one instruction file that are sent (32 KiB, as Codex bounds its AGENTS.md). */
export const INSTRUCTION_FILE_LIMIT_BYTES = 32 * 1024;

/** The most bytes of all instruction files together that are sent (64 KiB). */
export const INSTRUCTIONS_LIMIT_BYTES = 64 * 1024;

/** Whose file it is: the user's own (home) or the project's (needs trust). */
export type InstructionScope = 'user' | 'project';

/** One instruction file found. */
export interface InstructionFile {
  /** The file's path as looked up. */
  readonly path: string;
  /** `~/.claude/CLAUDE.md` style for user files, `AGENTS.md` style for project files. */
  readonly label: string;
  readonly scope: InstructionScope;
  /** The file's size in bytes. */
  readonly bytes: number;
  /** The text that is sent (bounded; a cut text ends with a note saying so). */
  readonly text: string;
  /** The text was cut to the bounds. */
  readonly truncated: boolean;
  /** The trust record's key for this file's text (`hookwire hooks trust`). */
  readonly fingerprint: string;
  /** A user file, or a project file whose text is trusted: it is sent. */
  readonly trusted: boolean;
}

/** Where instruction files are looked for. */
export interface InstructionSources {
  readonly projectDir: string;
  /** `HOOKWIRE_HOME` (default: the home directory). */
  readonly env: { readonly HOOKWIRE_HOME?: string | undefined };
  /** false (`--no-dialects`): read only `AGENTS.md`, not `CLAUDE.md` or `GEMINI.md`. */
  readonly dialects?: boolean;
  /** The project's trust; absent: every file is trusted (a library caller vouching for it). */
  readonly trust?: HookTrust;
}

interface Candidate {
  readonly path: string;
  readonly label: string;
  readonly scope: InstructionScope;
  readonly dialect: boolean;
}

function candidates(sources: InstructionSources): Candidate[] {
  const home =
    sources.env.HOOKWIRE_HOME === undefined || sources.env.HOOKWIRE_HOME === ''
      ? homedir()
      : sources.env.HOOKWIRE_HOME;
  return [
    {
      path: join(home, '.hookwire', 'AGENTS.md'),
      label: '~/.hookwire/AGENTS.md',
      scope: 'user',
      dialect: false,
    },
    {
      path: join(home, '.claude', 'CLAUDE.md'),
      label: '~/.claude/CLAUDE.md',
      scope: 'user',
      dialect: true,
    },
    {
      path: join(home, '.gemini', 'GEMINI.md'),
      label: '~/.gemini/GEMINI.md',
      scope: 'user',
      dialect: true,
    },
    ...(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const).map((name) => ({
      path: join(sources.projectDir, name),
      label: name,
      scope: 'project' as const,
      dialect: name !== 'AGENTS.md',
    })),
  ];
}

/** Reads at most `limit` bytes of `path`, and its size; `undefined` when it is not a readable file. */
async function readBounded(
  path: string,
  limit: number,
): Promise<{ text: string; bytes: number } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A cut inside a multi-byte character decodes to U+FFFD: drop it.
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/\uFFFD+$/, '');
    return { text, bytes: stats.size };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Finds and reads the instruction files (see the module comment), in order: the user's, then the
 * project's. Missing or unreadable files are left out; nothing here throws.
 */
export async function readInstructionFiles(
  sources: InstructionSources,
): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  const seenPaths = new Set<string>();
  const seenTexts = new Set<string>();
  let budget = INSTRUCTIONS_LIMIT_BYTES;
  for (const candidate of candidates(sources)) {
    if (candidate.dialect && sources.dialects === false) continue;
    const real = await realpath(candidate.path).catch(() => undefined);
    if (real === undefined || seenPaths.has(real)) continue;
    const limit = Math.min(INSTRUCTION_FILE_LIMIT_BYTES, budget);
    const read = await readBounded(real, limit);
    if (read === undefined) continue;
    seenPaths.add(real);
    if (read.text.trim() === '' || seenTexts.has(read.text)) continue;
    seenTexts.add(read.text);
    const truncated = read.bytes > Buffer.byteLength(read.text);
    const text = truncated
      ? `${read.text}\n[… cut: ${candidate.label} is ${read.bytes} bytes; the first ${Buffer.byteLength(read.text)} are sent]`
      : read.text;
    const fingerprint = trustFingerprint({ instructions: candidate.label, text });
    const trust = sources.trust;
    const trusted =
      candidate.scope === 'user' ||
      trust === undefined ||
      trust.trustAll ||
      trust.trusted.has(fingerprint);
    files.push({
      path: candidate.path,
      label: candidate.label,
      scope: candidate.scope,
      bytes: read.bytes,
      text,
      truncated,
      fingerprint,
      trusted,
    });
    if (trusted) budget -= Buffer.byteLength(read.text);
    if (budget <= 0) break;
  }
  return files;
}

/**
 * The system prompt section holding the trusted files' texts, each under its label; `undefined`
 * when none is sent.
 */
export function instructionsSection(files: readonly InstructionFile[]): string | undefined {
  const sent = files.filter((file) => file.trusted);
  if (sent.length === 0) return undefined;
  const parts = sent.map(
    (file) =>
      `## ${file.label} (${file.scope === 'user' ? "the user's own instructions" : 'the project'})\n\n${file.text.trimEnd()}`,
  );
  return `# Instructions\n\nThe user keeps these instructions for agents working here; follow them (a later file is more specific than an earlier one).\n\n${parts.join('\n\n')}`;
}
