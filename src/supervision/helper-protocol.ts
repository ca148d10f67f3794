/**
 * The framing between a helper runner and its spawn helper (the Node one, spawn-helper.ts, or the
 * native one, native/hookwire-spawn.c), over the helper's stdin (requests) and stdout (replies).
 * A frame is `u32 headerLength, u32 bodyLength` (big-endian), a header, then raw body bytes.
 * Bodies carry the bulk data unencoded (a run's stdin payload; a result's stdout then stderr),
 * so neither side JSON-escapes or decodes hook output twice and the helper never turns hook
 * output into heap strings. Reply headers are UTF-8 JSON. Request headers are UTF-8 fields
 * each ended by a NUL byte, which a C helper reads without a JSON parser:
 * `run ID TIMEOUT_MS KILL_GRACE_MS MAX_OUTPUT_BYTES INPUT_FILE INPUT_PIPE COMMAND CWD NAME=VALUE…`
 * (an empty field: the default, or none), in argv mode (no shell) `exec` with the same fields but
 * ARGC for COMMAND and the ARGC strings of the argv right after CWD, `cancel ID` and `opened ID`. The strings of a request therefore must not contain NUL bytes
 * (`requestHasNul`), which no process could receive anyway.
 */

import type { CommandTermination } from './command-runner.ts';

/** Parent → helper: start a run. Body: the stdin payload. */
export interface RunRequest {
  readonly type: 'run';
  readonly id: number;
  /** The shell command; empty in argv mode. */
  readonly command: string;
  /** Argv mode (sent as an `exec` header): the program and its arguments, run with no shell. */
  readonly argv?: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly killGraceMs?: number;
  readonly maxOutputBytes?: number;
  /**
   * A file holding the stdin payload (then the body is empty): the helper opens it, unlinks it,
   * and gives it to the hook as stdin, so a large payload is written once and crosses no pipe.
   */
  readonly inputFile?: string;
  /**
   * Native helper only. A path where the helper creates a FIFO whose read end becomes the hook's
   * stdin (then the body is empty); after the `started` reply the parent opens the write end,
   * says `opened`, and writes the payload straight into it: one pipe crossed, the hook reading
   * while the parent writes, as when a shell pipes bytes into a program.
   */
  readonly inputPipe?: string;
}

/** Parent → helper: abort a run (its outcome settles as `aborted`). No body. */
export interface CancelRequest {
  readonly type: 'cancel';
  readonly id: number;
}

/**
 * Parent → helper: the parent holds the write end of the run's `inputPipe`, so the helper drops
 * the one it held to keep the hook from reading end-of-file too early. No body.
 */
export interface OpenedRequest {
  readonly type: 'opened';
  readonly id: number;
}

export type HelperRequest = RunRequest | CancelRequest | OpenedRequest;

/** Helper → parent: the run's process group exists (so the parent can kill it if the helper dies). */
export interface StartedReply {
  readonly type: 'started';
  readonly id: number;
  readonly processId: number;
}

/** Helper → parent: the run settled. Body: `stdoutBytes` bytes of stdout, then stderr. */
export interface ResultReply {
  readonly type: 'result';
  readonly id: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdoutBytes: number;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly durationMs: number;
  readonly termination: CommandTermination;
  readonly spawnError?: string;
}

export type HelperReply = StartedReply | ResultReply;

const prefixBytes = 8;
const emptyBody: readonly Buffer[] = [];

/** True when a string the request carries holds a NUL byte (such a run cannot be started). */
export function requestHasNul(request: RunRequest): boolean {
  if (request.command.includes('\0') || request.cwd.includes('\0')) return true;
  if (request.argv?.some((arg) => arg.includes('\0')) === true) return true;
  if (request.inputFile?.includes('\0') === true) return true;
  if (request.inputPipe?.includes('\0') === true) return true;
  for (const [name, value] of Object.entries(request.env ?? {})) {
    if (name.includes('\0') || value.includes('\0')) return true;
  }
  return false;
}

function requestHeader(request: HelperRequest): string {
  if (request.type !== 'run') return `${request.type}\0${String(request.id)}\0`;
  const argv = request.argv;
  const fields = [
    argv === undefined ? 'run' : 'exec',
    String(request.id),
    String(request.timeoutMs),
    request.killGraceMs === undefined ? '' : String(request.killGraceMs),
    request.maxOutputBytes === undefined ? '' : String(request.maxOutputBytes),
    request.inputFile ?? '',
    request.inputPipe ?? '',
    argv === undefined ? request.command : String(argv.length),
    request.cwd,
    ...(argv ?? []),
  ];
  for (const [name, value] of Object.entries(request.env ?? {})) fields.push(`${name}=${value}`);
  return fields.map((value) => `${value}\0`).join('');
}

/** Decodes a request header (see the module comment); undefined for anything else. */
export function decodeRequest(header: Buffer): HelperRequest | undefined {
  const fields = header.toString('utf8').split('\0').slice(0, -1); // each field ends with NUL
  const number = (text: string | undefined) =>
    text === undefined || text === '' ? undefined : Number(text);
  const id = number(fields[1]);
  if (id === undefined) return undefined;
  if (fields[0] === 'cancel' || fields[0] === 'opened') return { type: fields[0], id };
  const exec = fields[0] === 'exec';
  if ((fields[0] !== 'run' && !exec) || fields.length < 9) return undefined;
  // `exec`: the command field is argc, and the argv follows cwd.
  const argc = exec ? Number(fields[7]) : 0;
  const argv = fields.slice(9, 9 + argc);
  if (argv.length !== argc) return undefined;
  const env: Record<string, string> = {};
  for (const pair of fields.slice(9 + argc)) {
    const at = pair.indexOf('=');
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const killGraceMs = number(fields[3]);
  const maxOutputBytes = number(fields[4]);
  return {
    type: 'run',
    id,
    timeoutMs: number(fields[2]) ?? 0,
    command: exec ? '' : (fields[7] ?? ''),
    ...(exec ? { argv } : {}),
    cwd: fields[8] ?? '',
    ...(fields[5] === undefined || fields[5] === '' ? {} : { inputFile: fields[5] }),
    ...(fields[6] === undefined || fields[6] === '' ? {} : { inputPipe: fields[6] }),
    ...(fields.length > 9 + argc ? { env } : {}),
    ...(killGraceMs === undefined ? {} : { killGraceMs }),
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
  };
}

/** Encodes one frame as the buffers to write in order (the body is not copied). */
export function encodeFrame(
  header: HelperRequest | HelperReply,
  body: readonly Buffer[] = emptyBody,
): Buffer[] {
  const headerText =
    header.type === 'run' || header.type === 'cancel' || header.type === 'opened'
      ? requestHeader(header)
      : JSON.stringify(header);
  const headerLength = Buffer.byteLength(headerText);
  let bodyLength = 0;
  for (const part of body) bodyLength += part.length;
  const head = Buffer.allocUnsafe(prefixBytes + headerLength);
  head.writeUInt32BE(headerLength, 0);
  head.writeUInt32BE(bodyLength, 4);
  head.write(headerText, prefixBytes, 'utf8');
  return [head, ...body];
}

/**
 * Reassembles frames from stream chunks. Chunks are collected until a whole frame is present and
 * joined once, so a large frame arriving in many chunks is copied once, not once per chunk.
 */
export class FrameDecoder {
  readonly #onFrame: (header: Buffer, body: Buffer) => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #needed = prefixBytes;

  /** `onFrame` gets the raw header bytes (JSON for replies, `decodeRequest` for requests). */
  constructor(onFrame: (header: Buffer, body: Buffer) => void) {
    this.#onFrame = onFrame;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    while (this.#buffered >= this.#needed) {
      let data =
        this.#chunks.length === 1
          ? (this.#chunks[0] ?? chunk)
          : Buffer.concat(this.#chunks, this.#buffered);
      const headerLength = data.readUInt32BE(0);
      const bodyLength = data.readUInt32BE(4);
      const frameLength = prefixBytes + headerLength + bodyLength;
      if (data.length < frameLength) {
        this.#chunks = [data];
        this.#needed = frameLength;
        return;
      }
      const header = data.subarray(prefixBytes, prefixBytes + headerLength);
      const body = data.subarray(prefixBytes + headerLength, frameLength);
      data = data.subarray(frameLength);
      this.#chunks = data.length === 0 ? [] : [data];
      this.#buffered = data.length;
      this.#needed = prefixBytes;
      this.#onFrame(header, body);
    }
  }
}
