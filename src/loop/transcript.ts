/**
 * The session transcript: an append-only JSONL file, one JSON record per line, written as the run
 * goes. Every record is `JSON.stringify`-encoded, so nothing a hook or a model produces can break
 * the line structure. Records appended within one event-loop turn are encoded and leave in one
 * synchronous `write(2)` at the end of that turn (so a step's bookkeeping is written while its
 * next model call is under way); `commit()` writes at once. The loop commits before any tool call
 * runs (its call is on record before any effect), as soon as each call's result is known while
 * others still run, and before any hook runs (a hook reading the transcript finds every record up
 * to its event), so a process killed at any point (`kill -9`) leaves every effect with its call on
 * record. No fsync: the data is in the kernel, which survives the process, not a power cut. A
 * truncated last line is skipped with a warning when the transcript is read back.
 *
 * History rule: the conversation is the `message` records in order (from the last `compaction`
 * record's history on, when the session was compacted), a `pending-message` record standing for
 * the AI message it wrote ahead when that message's own record never came, except that an AI
 * message's tool calls left without results (the process died mid-step) are answered from the
 * `tool-result` records, and a call with no record at all gets an "interrupted: may or may not
 * have run" result (`historyOf`, `repairToolResults`), so a resumed history is valid for every
 * provider.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ContentBlock, Message, ToolResponseBlock, Usage } from '../content/index.ts';
import type { HookReport } from '../events/context.ts';
import type { ObservedHookRun } from '../events/observed-hook-run.ts';
import { LoopError } from './loop-error.ts';
import type { RunStatus } from './run-events.ts';
import { writeProblem } from './write-problem.ts';
import type { ModelCallEnd, ToolCallStatus } from './run-telemetry.ts';

/**
 * Transcript format version, in the `session-start` record. Version 2 adds the `model-call`,
 * `tool-call` and `hook-run` records; version 3 the `pending-message` record. Readers skip record
 * types they do not know, so a version 1 or 2 transcript reads (and resumes) as before.
 */
export const TRANSCRIPT_VERSION = 3;

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
  /**
   * The write-ahead of an AI message whose calls are about to run (v3): the message without its
   * text blocks (its tool calls, and the reasoning blocks providers require beside them), on
   * record before any of the calls runs. The whole message follows as the next `message` record,
   * written with the step's other bookkeeping; read back, a `pending-message` that no AI
   * `message` record follows (the process died in between) stands for the message, without its
   * text. An answer with no text needs none: its `message` record is the write-ahead.
   */
  | {
      readonly type: 'pending-message';
      readonly turn: number;
      readonly message: Message;
      readonly time: string;
    }
  /**
   * One tool call's result, recorded the moment it is known (before the step's tool message).
   * `reviewed: false` is the tool's own outcome before PostToolUse hooks saw it (written only
   * when such hooks run); `true` is what the model is shown, with the hooks' added context.
   */
  | {
      readonly type: 'tool-result';
      readonly turn: number;
      readonly response: ToolResponseBlock;
      readonly reviewed: boolean;
      readonly additionalContext?: string | undefined;
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
  | { readonly type: 'session-end'; readonly reason: string; readonly time: string }
  /**
   * A model call (v2), from its first guarding hook (BeforeModel) to its answer: `time` is when
   * it started. `provider` / `model` are absent when a hook answered instead of a model.
   */
  | {
      readonly type: 'model-call';
      readonly turn: number;
      readonly modelCall: number;
      readonly provider?: string | undefined;
      readonly model?: string | undefined;
      readonly status: ModelCallEnd['status'];
      readonly finishReason?: string | undefined;
      readonly usage?: Usage | undefined;
      readonly reason?: string | undefined;
      readonly durationMs: number;
      readonly time: string;
    }
  /** A tool call (v2), from its PreToolUse hooks to its PostToolUse hooks: `time` is when it started. */
  | {
      readonly type: 'tool-call';
      readonly turn: number;
      readonly modelCall: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly status: ToolCallStatus;
      readonly error?: string | undefined;
      readonly durationMs: number;
      readonly time: string;
    }
  /**
   * A subagent started (the `agent` tool): its own transcript is `transcriptPath`. The parent's
   * history is unaffected; the call's result is in the parent's tool message.
   */
  | {
      readonly type: 'subagent-start';
      readonly turn: number;
      readonly toolCallId: string;
      readonly agentId: string;
      readonly agentType: string;
      readonly description: string;
      readonly transcriptPath: string;
      readonly time: string;
    }
  /** A subagent ended, with the status of its (one) turn. */
  | {
      readonly type: 'subagent-end';
      readonly turn: number;
      readonly toolCallId: string;
      readonly agentId: string;
      readonly status: RunStatus;
      readonly reason?: string;
      readonly time: string;
    }
  /**
   * The history was compacted: `history` is the whole new history (the summary message, then
   * the kept messages); reading the transcript back, the history restarts from it and the
   * `message` records after it follow. `summarizedMessages` messages were summarized.
   */
  | {
      readonly type: 'compaction';
      readonly turn: number;
      readonly trigger: 'auto' | 'manual';
      readonly summary: string;
      readonly summarizedMessages: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly history: readonly Message[];
      readonly time: string;
    }
  /**
   * One hook's run (v2): `turn` and `modelCall` say where it ran (0 outside a turn / before the
   * first model call); `time` is when it started.
   */
  | {
      readonly type: 'hook-run';
      readonly turn: number;
      readonly modelCall: number;
      readonly run: ObservedHookRun;
      readonly time: string;
    };

/**
 * A transcript write failed (`code` `transcript_write_failed`): the disk is full (the message
 * starts `disk full:`), a quota is exceeded, the file was removed… The run that meets it fails
 * before any further tool runs, so no effect is left without its record; the session resumes from
 * the records written before it once the cause is fixed.
 */
export class TranscriptWriteError extends LoopError {
  /** The errno code of the failed write (`ENOSPC`, `EDQUOT`, `EIO`, …), when there is one. */
  readonly errno: string | undefined;

  constructor(path: string, cause: unknown) {
    const errno =
      typeof cause === 'object' &&
      cause !== null &&
      typeof (cause as { code?: unknown }).code === 'string'
        ? (cause as { code: string }).code
        : undefined;
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      'transcript_write_failed',
      `${writeProblem(errno)}: the session transcript ${path} could not be written (${detail}); the run stops so that no tool runs without its record. Fix that, then resume the session (hookwire run --resume ID): it continues from the records written before.`,
      { cause },
    );
    this.name = 'TranscriptWriteError';
    this.errno = errno;
  }
}

/** The encoding buffer a writer keeps between commits (a step's records fit many times over). */
const KEPT_BUFFER_BYTES = 64 * 1024;

/** The longest a deferred record (`appendDeferred`) waits for a write to leave with. */
export const DEFERRED_WRITE_MS = 50;

/** Options of `TranscriptWriter.open`. */
export interface TranscriptWriterOptions {
  /**
   * SENSITIVE. Keep what each hook received (a `hook-run` record's `run.payload`) and a tool's
   * result before PostToolUse hooks reviewed it (a `tool-result` record with `reviewed: false`).
   * Default false: both are left out, because they may hold what a redacting hook removed (an
   * AfterModel hook's payload is the raw answer; the unreviewed result is the raw output).
   */
  readonly recordPayloads?: boolean;
}

/**
 * `record` as written by default (see `TranscriptWriterOptions.recordPayloads`): a hook run
 * without its payload, an unreviewed tool result without its result or error text (resume
 * answers such a result as withheld anyway, saying only whether it completed or failed).
 */
export function withoutPayloads(record: TranscriptRecord): TranscriptRecord {
  if (record.type === 'hook-run' && record.run.payload !== undefined) {
    const { payload: _payload, ...run } = record.run;
    return { ...record, run };
  }
  if (record.type === 'tool-result' && !record.reviewed) {
    const { callId, toolName, error } = record.response;
    return {
      ...record,
      response: {
        type: 'tool_response',
        callId,
        toolName,
        result: null,
        ...(error === undefined ? {} : { error: WITHHELD_ERROR }),
      },
    };
  }
  return record;
}

const WITHHELD_ERROR =
  'the tool failed; its error is not recorded before PostToolUse hooks review it (--record-payloads keeps it)';

/** Appends records to a transcript file. */
export class TranscriptWriter {
  readonly path: string;
  readonly #recordPayloads: boolean;
  #fd: number | undefined;
  #failure: TranscriptWriteError | undefined;
  /** Records appended since the last write, encoded when they are written. */
  #pending: TranscriptRecord[] = [];
  #prefix = '';
  /** Where a commit's lines are encoded (see `commit`). */
  readonly #buffer: Buffer = Buffer.allocUnsafe(KEPT_BUFFER_BYTES);
  #scheduled = false;
  /** Armed while only deferred records are pending (see `appendDeferred`). */
  #deferredTimer: NodeJS.Timeout | undefined;
  // Records appended within one turn of the event loop leave in one write (one syscall) instead
  // of one each: a step appends several.
  readonly #flushPending = () => {
    this.#scheduled = false;
    this.commit();
  };
  readonly #flushDeferred = () => {
    this.#deferredTimer = undefined;
    this.commit();
  };

  private constructor(path: string, fd: number, recordPayloads: boolean) {
    this.path = path;
    this.#fd = fd;
    this.#recordPayloads = recordPayloads;
  }

  /**
   * Opens `path` for appending, creating its directory. When the file exists and its last line
   * is incomplete (a crash mid-write), a newline is written first so new records start on a line
   * of their own.
   */
  static async open(
    path: string,
    options: TranscriptWriterOptions = {},
  ): Promise<TranscriptWriter> {
    await mkdir(dirname(path), { recursive: true });
    const needsNewline = await endsMidLine(path);
    const writer = new TranscriptWriter(path, openSync(path, 'a'), options.recordPayloads === true);
    if (needsNewline) writer.#prefix = '\n';
    return writer;
  }

  /**
   * Appends one record (one line); it is encoded and written at the end of this event-loop turn,
   * or by an earlier `commit()`. A record is never changed after it is appended (the loop's
   * records and messages are immutable), so encoding it later writes what was appended.
   */
  append(record: TranscriptRecord): void {
    if (this.#failure !== undefined || this.#fd === undefined) return;
    this.#pending.push(this.#recordPayloads ? record : withoutPayloads(record));
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flushPending);
    }
  }

  /**
   * Appends a record that need not leave in a write of its own — a hook run's observation, which
   * the step that fired the hook follows with records of its own within milliseconds: it leaves
   * with the next write (that step's, or a `commit()`: before any tool runs and before any hook
   * runs, so a hook reading the transcript still finds it), and at the latest after
   * `DEFERRED_WRITE_MS`. One write per hooked event less (issue 29).
   */
  appendDeferred(record: TranscriptRecord): void {
    if (this.#failure !== undefined || this.#fd === undefined) return;
    this.#pending.push(this.#recordPayloads ? record : withoutPayloads(record));
    if (!this.#scheduled && this.#deferredTimer === undefined) {
      this.#deferredTimer = setTimeout(this.#flushDeferred, DEFERRED_WRITE_MS);
      this.#deferredTimer.unref();
    }
  }

  /**
   * The first write failure, when one happened: records appended since are dropped, and the loop
   * stops at its next write-ahead (`commitOrThrow`).
   */
  get failure(): TranscriptWriteError | undefined {
    return this.#failure;
  }

  /** Throws the write failure, when one happened (see `failure`). */
  throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * `commit()`, then throws when the records are not all in the kernel (this write or an
   * earlier one failed): what the loop calls before a tool runs, so that a tool never runs
   * without its call on record.
   */
  commitOrThrow(): void {
    this.commit();
    this.throwIfFailed();
  }

  /**
   * Writes every appended record now, synchronously: when it returns they are in the kernel and
   * survive the process being killed. A write failure (disk full, file removed) never throws
   * here: it is kept (`failure`), the line it cut is removed from the file (whole lines only
   * stay), later records are dropped, and `commitOrThrow` and `flush` throw it.
   */
  commit(): void {
    if (this.#deferredTimer !== undefined) {
      clearTimeout(this.#deferredTimer);
      this.#deferredTimer = undefined;
    }
    const pending = this.#pending;
    if (pending.length === 0 || this.#fd === undefined || this.#failure !== undefined) return;
    this.#pending = [];
    // Each line is encoded straight into the writer's buffer (no joined string, no copy of it),
    // which goes to the kernel in one write; a commit larger than the buffer gets a larger one of
    // its own, not kept.
    let buffer = this.#buffer;
    let length = 0;
    if (this.#prefix !== '') {
      length = buffer.write(this.#prefix, 0, 'latin1');
      this.#prefix = '';
    }
    for (const record of pending) {
      const line = encodeRecord(record);
      // At most three bytes per UTF-16 unit, and the newline (a long line is measured instead).
      const most = length + (line.length <= 16_384 ? line.length * 3 : Buffer.byteLength(line)) + 1;
      if (most > buffer.length) buffer = grown(buffer, length, most);
      length += buffer.write(line, length, 'utf8');
      buffer[length++] = 0x0a;
    }
    let offset = 0;
    try {
      while (offset < length) offset += writeSync(this.#fd, buffer, offset, length - offset);
    } catch (error) {
      this.#failure = new TranscriptWriteError(this.path, error);
      this.#dropCutLine(buffer, offset);
    }
  }

  /**
   * After a write that failed past `written` bytes of `buffer`: removes the bytes after the last
   * whole line written (a line cut short would be skipped with a warning on read; without it the
   * file ends on a whole record). Best effort: a file that cannot be truncated keeps the cut line.
   */
  #dropCutLine(buffer: Buffer, written: number): void {
    if (written === 0 || this.#fd === undefined) return;
    const cut = written - (buffer.lastIndexOf(0x0a, written - 1) + 1);
    if (cut === 0) return;
    try {
      ftruncateSync(this.#fd, fstatSync(this.#fd).size - cut);
    } catch {
      // The reader skips the cut line.
    }
  }

  /** Writes every appended record; rejects on a write failure. */
  flush(): Promise<void> {
    this.commit();
    return this.#failure === undefined ? Promise.resolve() : Promise.reject(this.#failure);
  }

  /** Writes what is pending and closes the file. Closing twice does nothing. */
  close(): Promise<void> {
    this.commit();
    if (this.#fd !== undefined) {
      const fd = this.#fd;
      this.#fd = undefined;
      try {
        closeSync(fd);
      } catch {
        // Already unusable: nothing more can be lost.
      }
    }
    return Promise.resolve();
  }
}

/** A larger buffer holding the first `used` bytes of `buffer`, with room for `needed`. */
function grown(buffer: Buffer, used: number, needed: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.max(needed, buffer.length * 2));
  buffer.copy(larger, 0, 0, used);
  return larger;
}

/**
 * One record's line. A record that JSON cannot encode (a tool's result holding a `BigInt` or a
 * cycle) is written as an `unencodable` record naming it and why, which readers skip: the rest of
 * the transcript is written, and the process never fails on it.
 */
function encodeRecord(record: TranscriptRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    return JSON.stringify({
      type: 'unencodable',
      recordType: record.type,
      error: error instanceof Error ? error.message : String(error),
      time: 'time' in record ? record.time : undefined,
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
 * The largest record `readTranscript` reads by default, in bytes (64 MiB): a longer line is
 * skipped with a warning, never read into one string (V8 strings end near 512 MiB).
 */
export const MAX_TRANSCRIPT_RECORD_BYTES = 64 * 1024 * 1024;

/** Options of `readTranscript`. */
export interface ReadTranscriptOptions {
  /** The largest record read, in bytes; default `MAX_TRANSCRIPT_RECORD_BYTES`. */
  readonly maxRecordBytes?: number;
  /**
   * Only records of these types are wanted: a line the writer wrote for another type (it starts
   * `{"type":"…"`) is passed over without being parsed. Default: every type.
   */
  readonly types?: ReadonlySet<string>;
}

const TYPE_PREFIX = '{"type":"';

/** The type a line starts with, as the writer writes records (`{"type":"…"`), if it does. */
function typeOf(line: string): string | undefined {
  if (!line.startsWith(TYPE_PREFIX)) return undefined;
  const end = line.indexOf('"', TYPE_PREFIX.length);
  return end === -1 ? undefined : line.slice(TYPE_PREFIX.length, end);
}

/** Bytes read from the file at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads a transcript, line by line (the file is never one string: a transcript of any size
 * reads, each record at most `maxRecordBytes`). A line that is not a JSON record (typically the
 * last line, cut short by a crash), a record of a known type whose shape is wrong (a `message`
 * without its message, a `tool-result` without its response) and a line over the cap are skipped
 * with a warning naming the file and line, never an error.
 */
export async function readTranscript(
  path: string,
  options: ReadTranscriptOptions = {},
): Promise<TranscriptContents> {
  const cap = options.maxRecordBytes ?? MAX_TRANSCRIPT_RECORD_BYTES;
  const { recordProblem } = await import('./transcript-schemas.ts');
  const records: TranscriptRecord[] = [];
  const warnings: string[] = [];
  const handle = await open(path, 'r');
  let lineNumber = 0;
  const wanted = options.types;
  const take = (bytes: Buffer, last: boolean): void => {
    lineNumber++;
    const line = bytes.toString('utf8');
    if (line.trim() === '') return;
    if (wanted !== undefined) {
      const type = typeOf(line);
      // A whole line of an unwanted type (a line cut short still gets its warning).
      if (type !== undefined && !wanted.has(type) && !(last && !line.endsWith('}'))) return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(
        `${path}:${lineNumber}: skipped ${last ? 'a truncated last line' : 'a line that is not JSON'} (${line.length} characters); the session continues from the records before it`,
      );
      return;
    }
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as { type?: unknown }).type !== 'string'
    ) {
      warnings.push(`${path}:${lineNumber}: skipped a line that is not a transcript record`);
      return;
    }
    const record = value as { readonly type: string };
    const problem = recordProblem(record);
    if (problem !== undefined) {
      warnings.push(
        `${path}:${lineNumber}: skipped a ${record.type} record of the wrong shape (${problem})`,
      );
      return;
    }
    records.push(value as TranscriptRecord);
  };
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    // The current line: its pieces (copies) and length; `over` once it passed the cap (its bytes
    // are then counted, not kept).
    let pieces: Buffer[] = [];
    let length = 0;
    let over = false;
    const endLine = (last: boolean): void => {
      if (over) {
        lineNumber++;
        warnings.push(
          `${path}:${lineNumber}: skipped a record of ${length} bytes, over the ${cap} bytes a record may have; the session continues without it`,
        );
      } else
        take(pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, length), last);
      pieces = [];
      length = 0;
      over = false;
    };
    const pastCap = (): boolean => over;
    const add = (bytes: Buffer): void => {
      length += bytes.length;
      if (over) return;
      if (length > cap) {
        over = true;
        pieces = [];
        return;
      }
      pieces.push(Buffer.from(bytes));
    };
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        if (newline === -1 || newline >= bytesRead) {
          if (start < bytesRead) add(chunk.subarray(start, bytesRead));
          break;
        }
        // A line whole in this chunk is read from it, not copied.
        if (length === 0 && !pastCap() && newline - start <= cap)
          take(chunk.subarray(start, newline), false);
        else {
          add(chunk.subarray(start, newline));
          endLine(false);
        }
        start = newline + 1;
      }
    }
    if (length > 0 || pastCap()) endLine(true);
  } finally {
    await handle.close();
  }
  return { records, warnings };
}

/** The result given to a tool call whose outcome no record holds. */
export function interruptedResult(call: {
  readonly id: string;
  readonly name: string;
}): ToolResponseBlock {
  return {
    type: 'tool_response',
    callId: call.id,
    toolName: call.name,
    result: null,
    error:
      'The session was interrupted while this tool call was in progress: the tool may or may not have run, and its result was lost. Check its effect before running it again.',
  };
}

/** The result given to a call whose tool ran but whose result its PostToolUse hooks never saw. */
function unreviewedResult(response: ToolResponseBlock): ToolResponseBlock {
  return {
    type: 'tool_response',
    callId: response.callId,
    toolName: response.toolName,
    result: null,
    error: `The session was interrupted after this tool ran (it ${response.error === undefined ? 'completed' : 'failed'}), before its result was reviewed by the PostToolUse hooks, so the result is withheld. Check its effect before running it again.`,
  };
}

/** A tool message answering `calls` from the recorded results, in call order. */
function answerFor(
  calls: readonly { readonly id: string; readonly name: string }[],
  results: ReadonlyMap<string, Extract<TranscriptRecord, { type: 'tool-result' }>>,
): Message {
  const blocks: ContentBlock[] = [];
  const contexts: string[] = [];
  for (const call of calls) {
    const record = results.get(call.id);
    if (record === undefined) blocks.push(interruptedResult(call));
    else if (!record.reviewed) blocks.push(unreviewedResult(record.response));
    else {
      blocks.push(record.response);
      if (record.additionalContext !== undefined) contexts.push(record.additionalContext);
    }
  }
  for (const text of contexts) blocks.push({ type: 'text', text });
  return { speaker: 'tool', blocks };
}

/** What `repairToolResults` found: the valid history and the tool messages it added. */
export interface RepairedHistory {
  readonly history: Message[];
  /** The tool messages added, each with the index it has in `history`. */
  readonly added: readonly { readonly index: number; readonly message: Message }[];
  /**
   * The indexes in `history` of AI messages read from their `pending-message` write-ahead, their
   * own record never written (the process died in between): their text is lost.
   */
  readonly restored: ReadonlySet<number>;
  /**
   * Tool results whose call is not right before them (a damaged transcript: the line of the
   * message that made the call is gone), or that answer a call a second time: turned into text
   * (see `repairToolResults`), in order.
   */
  readonly orphans: readonly { readonly callId: string; readonly toolName: string }[];
}

/** The most characters of an orphaned tool result kept in the text that replaces it. */
const ORPHAN_TEXT_CHARACTERS = 2000;

/** The text an orphaned tool result becomes. */
function orphanText(block: ToolResponseBlock): ContentBlock {
  let outcome: string;
  if (block.error !== undefined) outcome = `error: ${block.error}`;
  else {
    try {
      // A result of `undefined` encodes as nothing: JSON.stringify returns undefined for it.
      const json = JSON.stringify(block.result) as string | undefined;
      outcome = json === undefined ? 'no result' : `result: ${json}`;
    } catch {
      outcome = 'result: (not JSON)';
    }
  }
  if (outcome.length > ORPHAN_TEXT_CHARACTERS)
    outcome = `${outcome.slice(0, ORPHAN_TEXT_CHARACTERS)}… (cut)`;
  return {
    type: 'text',
    text: `[The session's transcript was damaged: the tool call ${block.callId} (${block.toolName}) that this result answered is missing from it, so the result is shown as text.] ${outcome}`,
  };
}

/** True when each result of `message` answers one of `calls`, and none twice (the common case). */
function answersOnly(message: Message, calls: ReadonlySet<string>): boolean {
  let count = 0;
  for (const block of message.blocks) {
    if (block.type !== 'tool_response') continue;
    if (!calls.has(block.callId)) return false;
    count++;
  }
  if (count <= 1) return true;
  const seen = new Set<string>();
  for (const block of message.blocks)
    if (block.type === 'tool_response') {
      if (seen.has(block.callId)) return false;
      seen.add(block.callId);
    }
  return true;
}

/**
 * Makes every tool message answer only the calls of the AI message right before it, once each:
 * a result without its call (or a second answer to one) becomes text — in the same tool message
 * when results remain in it, else in a human message (the previous one, when it is human).
 * Returns the results so turned.
 */
function dropOrphanResults(messages: Message[]): { callId: string; toolName: string }[] {
  const orphans: { callId: string; toolName: string }[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.speaker !== 'tool') continue;
    const previous = messages[index - 1];
    const calls = new Set(previous?.speaker === 'ai' ? callIdsOf(previous) : []);
    if (answersOnly(message, calls)) continue;
    const answered = new Set<string>();
    const kept: ContentBlock[] = [];
    const texts: ContentBlock[] = [];
    for (const block of message.blocks) {
      if (block.type !== 'tool_response') kept.push(block);
      else if (calls.has(block.callId) && !answered.has(block.callId)) {
        answered.add(block.callId);
        kept.push(block);
      } else {
        orphans.push({ callId: block.callId, toolName: block.toolName });
        texts.push(orphanText(block));
      }
    }
    if (texts.length === 0) continue;
    if (answered.size > 0) {
      messages[index] = { ...message, blocks: [...kept, ...texts] };
    } else if (previous?.speaker === 'human') {
      messages[index - 1] = { ...previous, blocks: [...previous.blocks, ...kept, ...texts] };
      messages.splice(index, 1);
      index--;
    } else {
      messages[index] = { speaker: 'human', blocks: [...kept, ...texts] };
    }
  }
  return orphans;
}

/**
 * The history of `records` with every tool call answered: the `message` records in order, and
 * after an AI message whose tool calls the next message does not answer (the process died before
 * the step's tool message), a tool message built from the calls' `tool-result` records (a reviewed
 * result as is; an unreviewed one withheld; none: "may or may not have run"). Calls a following
 * tool message leaves out are answered in it the same way. First, a tool result whose call is not
 * in the AI message right before it (a damaged transcript) is turned into text, so the history is
 * valid for every provider whatever was lost (`orphans`).
 */
export function repairToolResults(records: readonly TranscriptRecord[]): RepairedHistory {
  const history: Message[] = [];
  const added: { index: number; message: Message }[] = [];
  const results = new Map<string, Extract<TranscriptRecord, { type: 'tool-result' }>>();
  for (const record of records) {
    if (record.type !== 'tool-result') continue;
    // A reviewed result supersedes the unreviewed one of the same call.
    const known = results.get(record.response.callId);
    if (known === undefined || record.reviewed || !known.reviewed)
      results.set(record.response.callId, record);
  }
  // The history restarts from the last compaction's; the messages after it follow. A pending
  // message holds its place until its whole message arrives: the next message record, when that
  // is the AI message with the same calls.
  const messages: Message[] = [];
  const fromPending = new Set<Message>();
  let pending: Message | undefined;
  for (const record of records) {
    if (record.type === 'message') {
      if (pending !== undefined && sameCalls(pending, record.message)) {
        messages[messages.length - 1] = record.message;
        fromPending.delete(pending);
      } else messages.push(record.message);
      pending = undefined;
    } else if (record.type === 'pending-message') {
      pending = record.message;
      messages.push(pending);
      fromPending.add(pending);
    } else if (record.type === 'compaction') {
      messages.splice(0, messages.length, ...record.history);
      pending = undefined;
    }
  }
  const orphans = dropOrphanResults(messages);
  const restored = new Set<number>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    history.push(message);
    if (fromPending.has(message)) restored.add(history.length - 1);
    if (message.speaker !== 'ai') continue;
    const calls = message.blocks.flatMap((block) =>
      block.type === 'tool_call' ? [{ id: block.id, name: block.name }] : [],
    );
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    if (next?.speaker === 'tool') {
      const answered = new Set(
        next.blocks.flatMap((block) => (block.type === 'tool_response' ? [block.callId] : [])),
      );
      const missing = calls.filter((call) => !answered.has(call.id));
      if (missing.length === 0) continue;
      // Answer the missing calls inside that tool message (never two tool messages in a row).
      messages[index + 1] = {
        ...next,
        blocks: [...answerFor(missing, results).blocks, ...next.blocks],
      };
      continue;
    }
    const answer = answerFor(calls, results);
    history.push(answer);
    added.push({ index: history.length - 1, message: answer });
  }
  return { history, added, restored, orphans };
}

/** True when `message` is an AI message with exactly the tool calls of `pending`, in order. */
function sameCalls(pending: Message, message: Message): boolean {
  if (message.speaker !== 'ai') return false;
  const expected = callIdsOf(pending);
  const actual = callIdsOf(message);
  return actual.length === expected.length && actual.every((id, index) => id === expected[index]);
}

function callIdsOf(message: Message): string[] {
  return message.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : []));
}

/** The conversation history a transcript records: see the history rule above. */
export function historyOf(records: readonly TranscriptRecord[]): Message[] {
  return repairToolResults(records).history;
}

/** The highest turn number a transcript records (0 when none). */
export function lastTurnOf(records: readonly TranscriptRecord[]): number {
  let turn = 0;
  for (const record of records)
    if (record.type === 'turn-start' && record.turn > turn) turn = record.turn;
  return turn;
}
