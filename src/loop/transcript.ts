/**
 * The session transcript: an append-only JSONL file, one JSON record per line, written as the run
 * goes. Every record is `JSON.stringify`-encoded, so nothing a hook or a model produces can break
 * the line structure. Each record is handed to the OS as its own write (no batching across
 * records, no fsync), so a crash loses at most the record in flight; a truncated last line is
 * skipped with a warning when the transcript is read back.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Message } from '../content/index.ts';
import type { HookReport } from '../events/context.ts';
import type { RunStatus } from './run-events.ts';

/** Transcript format version, in the `session-start` record. */
export const TRANSCRIPT_VERSION = 1;

/** One line of a transcript. `time` is an ISO 8601 timestamp. */
export type TranscriptRecord =
  | {
      readonly type: 'session-start';
      readonly version: number;
      readonly sessionId: string;
      readonly cwd: string;
      readonly source: 'startup' | 'resume';
      readonly time: string;
    }
  | {
      readonly type: 'turn-start';
      readonly turn: number;
      readonly prompt: string;
      readonly time: string;
    }
  /** A message appended to the conversation history (the history is exactly these, in order). */
  | {
      readonly type: 'message';
      readonly turn: number;
      readonly message: Message;
      readonly time: string;
    }
  | { readonly type: 'hook-report'; readonly report: HookReport; readonly time: string }
  | {
      readonly type: 'turn-end';
      readonly turn: number;
      readonly status: RunStatus;
      readonly reason?: string;
      readonly time: string;
    }
  | { readonly type: 'session-end'; readonly reason: string; readonly time: string };

/** Appends records to a transcript file. */
export class TranscriptWriter {
  readonly path: string;
  readonly #stream: WriteStream;
  #failure: Error | undefined;
  #corked = false;
  // Records appended within one turn of the event loop leave in one write (one syscall, one
  // thread-pool round trip) instead of one each: a step appends several, and a round trip per
  // record was most of the loop's cost per step. A crash loses at most that turn's records,
  // which were in flight anyway.
  readonly #uncork = () => {
    this.#corked = false;
    this.#stream.uncork();
  };

  private constructor(path: string, stream: WriteStream) {
    this.path = path;
    this.#stream = stream;
    // A write failure (disk full, file removed) must not crash the process; it surfaces on flush.
    stream.on('error', (error) => {
      this.#failure = error;
    });
  }

  /**
   * Opens `path` for appending, creating its directory. When the file exists and its last line
   * is incomplete (a crash mid-write), a newline is written first so new records start on a line
   * of their own.
   */
  static async open(path: string): Promise<TranscriptWriter> {
    await mkdir(dirname(path), { recursive: true });
    const needsNewline = await endsMidLine(path);
    const stream = createWriteStream(path, { flags: 'a' });
    const writer = new TranscriptWriter(path, stream);
    if (needsNewline) stream.write('\n');
    return writer;
  }

  /** Appends one record (one line). Does not wait: see `flush`. */
  append(record: TranscriptRecord): void {
    if (this.#failure !== undefined) return;
    if (!this.#corked) {
      this.#corked = true;
      this.#stream.cork();
      setImmediate(this.#uncork);
    }
    this.#stream.write(`${JSON.stringify(record)}\n`);
  }

  /** Resolves once every appended record has been handed to the OS; rejects on a write failure. */
  flush(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#failure !== undefined) {
        reject(this.#failure);
        return;
      }
      this.#stream.write('', (error) => {
        if (error === undefined || error === null) resolve();
        else reject(error);
      });
    });
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#stream.end(() => {
        resolve();
      });
    });
  }
}

async function endsMidLine(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

/** A transcript read back: its valid records, and a warning for each line that was skipped. */
export interface TranscriptContents {
  readonly records: readonly TranscriptRecord[];
  readonly warnings: readonly string[];
}

/**
 * Reads a transcript. A line that is not a JSON record (typically the last line, cut short by a
 * crash) is skipped with a warning naming the file and line, never an error.
 */
export async function readTranscript(path: string): Promise<TranscriptContents> {
  const text = await readFile(path, 'utf8');
  const records: TranscriptRecord[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const last = index === lines.length - 1;
      warnings.push(
        `${path}:${index + 1}: skipped ${last ? 'a truncated last line' : 'a line that is not JSON'} (${line.length} characters); the session continues from the records before it`,
      );
      continue;
    }
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as { type?: unknown }).type !== 'string'
    ) {
      warnings.push(`${path}:${index + 1}: skipped a line that is not a transcript record`);
      continue;
    }
    records.push(value as TranscriptRecord);
  }
  return { records, warnings };
}

/** The conversation history a transcript records: its `message` records, in order. */
export function historyOf(records: readonly TranscriptRecord[]): Message[] {
  const history: Message[] = [];
  for (const record of records) if (record.type === 'message') history.push(record.message);
  return history;
}

/** The highest turn number a transcript records (0 when none). */
export function lastTurnOf(records: readonly TranscriptRecord[]): number {
  let turn = 0;
  for (const record of records)
    if (record.type === 'turn-start' && record.turn > turn) turn = record.turn;
  return turn;
}
