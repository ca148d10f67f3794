/**
 * Where sessions live on disk: one JSONL transcript per session, `<sessionsDir>/<sessionId>.jsonl`
 * (by default `<project>/.hookwire/sessions`). Listing and finding them for the commands that read
 * past sessions (`hookwire hooks stats`, `hookwire trace`).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LoopError } from './loop-error.ts';

/** The default sessions directory of a project. */
export function defaultSessionsDir(projectDir: string): string {
  return join(projectDir, '.hookwire', 'sessions');
}

/** One session's transcript file. */
export interface SessionFile {
  readonly sessionId: string;
  readonly transcriptPath: string;
  /** When the transcript was last written, in ms since the epoch. */
  readonly modifiedMs: number;
}

/** The sessions of `sessionsDir`, most recently written first (none when the folder is missing). */
export async function listSessionFiles(sessionsDir: string): Promise<SessionFile[]> {
  let names: string[];
  try {
    names = await readdir(sessionsDir);
  } catch {
    return [];
  }
  const files = await Promise.all(
    names
      .filter((name) => name.endsWith('.jsonl'))
      .map(async (name): Promise<SessionFile | undefined> => {
        const transcriptPath = join(sessionsDir, name);
        try {
          const info = await stat(transcriptPath);
          if (!info.isFile()) return undefined;
          return {
            sessionId: name.slice(0, -'.jsonl'.length),
            transcriptPath,
            modifiedMs: info.mtimeMs,
          };
        } catch {
          return undefined;
        }
      }),
  );
  return files
    .filter((file): file is SessionFile => file !== undefined)
    .sort((a, b) => b.modifiedMs - a.modifiedMs || a.sessionId.localeCompare(b.sessionId));
}

/**
 * The transcript of session `sessionId` in `sessionsDir`. Throws `LoopError`
 * (`session_not_found`) naming the folder and the most recent sessions when there is none.
 */
export async function findSessionFile(
  sessionsDir: string,
  sessionId: string,
): Promise<SessionFile> {
  const sessions = await listSessionFiles(sessionsDir);
  const found = sessions.find((session) => session.sessionId === sessionId);
  if (found !== undefined) return found;
  const recent = sessions.slice(0, 3).map((session) => session.sessionId);
  throw new LoopError(
    'session_not_found',
    `No transcript for session ${JSON.stringify(sessionId)} in ${sessionsDir}; ${
      recent.length === 0
        ? 'that folder holds no sessions (run from the project directory, or pass --cwd)'
        : `the most recent are ${recent.join(', ')}`
    }.`,
  );
}
