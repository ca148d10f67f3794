/**
 * The framing between a helper runner and its spawn helper, over the helper's stdin (requests)
 * and stdout (replies). A frame is `u32 headerLength, u32 bodyLength` (big-endian), a UTF-8 JSON
 * header, then raw body bytes. Bodies carry the bulk data unencoded (a run's stdin payload; a
 * result's stdout then stderr), so neither side JSON-escapes or decodes hook output twice and
 * the helper never turns hook output into heap strings.
 */

import type { CommandTermination } from './command-runner.ts';

/** Parent → helper: start a run. Body: the stdin payload. */
export interface RunRequest {
  readonly type: 'run';
  readonly id: number;
  readonly command: string;
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly killGraceMs?: number;
  readonly maxOutputBytes?: number;
}

/** Parent → helper: abort a run (its outcome settles as `aborted`). No body. */
export interface CancelRequest {
  readonly type: 'cancel';
  readonly id: number;
}

export type HelperRequest = RunRequest | CancelRequest;

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

/** Encodes one frame as the buffers to write in order (the body is not copied). */
export function encodeFrame(
  header: HelperRequest | HelperReply,
  body: readonly Buffer[] = emptyBody,
): Buffer[] {
  const headerText = JSON.stringify(header);
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
  readonly #onFrame: (header: unknown, body: Buffer) => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #needed = prefixBytes;

  constructor(onFrame: (header: unknown, body: Buffer) => void) {
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
      const header: unknown = JSON.parse(
        data.toString('utf8', prefixBytes, prefixBytes + headerLength),
      );
      const body = data.subarray(prefixBytes + headerLength, frameLength);
      data = data.subarray(frameLength);
      this.#chunks = data.length === 0 ? [] : [data];
      this.#buffered = data.length;
      this.#needed = prefixBytes;
      this.#onFrame(header, body);
    }
  }
}
