import { defaultSessionsDir, findSessionFile, listSessionFiles } from '../../loop/session-files.ts';
import { readTranscript, type TranscriptRecord } from '../../loop/index.ts';

/** One past session read back. */
export interface ReadSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly records: readonly TranscriptRecord[];
  /** Lines skipped (a crash's truncated last line), one warning each. */
  readonly warnings: readonly string[];
}

/**
 * Reads the sessions `sessionIds` of the project (or, when none is given, its `last` most
 * recently written ones). An unknown id throws a `LoopError` naming the folder searched.
 */
export async function readSessions(
  projectDir: string,
  sessionIds: readonly string[],
  last: number,
): Promise<ReadSession[]> {
  const sessionsDir = defaultSessionsDir(projectDir);
  const files =
    sessionIds.length > 0
      ? await Promise.all(sessionIds.map((id) => findSessionFile(sessionsDir, id)))
      : (await listSessionFiles(sessionsDir)).slice(0, last);
  return Promise.all(
    files.map(async (file) => {
      const contents = await readTranscript(file.transcriptPath);
      return {
        sessionId: file.sessionId,
        transcriptPath: file.transcriptPath,
        records: contents.records,
        warnings: contents.warnings,
      };
    }),
  );
}
