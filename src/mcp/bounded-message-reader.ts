/**
 * The reading half of MCP's stdio framing (one JSON-RPC message per line), with a bound on one
 * message instead of the SDK `ReadBuffer`'s throw.
 *
 * The SDK's `ReadBuffer.append` throws `ReadBuffer exceeded maximum size` from inside the
 * child's `data` handler once 10 MiB are buffered: an uncaught exception that took hookwire down
 * with Node's stack, no result and no SessionEnd (issue 27). Here a line that grows past
 * `maxMessageBytes` is discarded as it streams (memory stays bounded by the limit), and when its
 * end arrives the reader reports it as `oversized` with its size and, when it can tell, the id
 * of the request it answers: a server writes a response's `id` either first (`{"jsonrpc":"2.0",
 * "id":7,…`, most SDKs but TypeScript's) or last (`…,"jsonrpc":"2.0","id":7}`, the TypeScript
 * SDK), so the first and last bytes of the line are kept to find it. The transport turns that
 * into a JSON-RPC error answer to the request, so the one call fails and the session goes on.
 *
 * Chunks are kept as a list and joined once per line: no copy of the whole buffer per chunk.
 */

/** What one complete line was: a message's text, or a line over the limit (discarded). */
export type ReadLine =
  | { readonly kind: 'line'; readonly text: string }
  | {
      readonly kind: 'oversized';
      /** The line's length in bytes (without its newline). */
      readonly bytes: number;
      /** The id of the response, when the kept head or tail names it. */
      readonly id?: string | number;
    };

/** The bytes kept at each end of an oversized line to find its `id`. */
const EDGE_BYTES = 512;

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE,
);
const TAIL_ID = new RegExp(
  String.raw`"id"\s*:\s*` + ID_VALUE + String.raw`\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`,
);

function parseId(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'number' || typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a byte stream into lines of at most `maxMessageBytes` bytes each. */
export class BoundedMessageReader {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #length = 0;
  /** Set while an oversized line is being discarded. */
  #discard: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(maxMessageBytes: number) {
    this.#max = maxMessageBytes;
  }

  /** Feeds a chunk; returns every line it completed, in order. */
  push(chunk: Buffer): ReadLine[] {
    const lines: ReadLine[] = [];
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(0x0a);
      if (newline === -1) {
        this.#take(rest);
        return lines;
      }
      this.#take(rest.subarray(0, newline));
      lines.push(this.#endLine());
      rest = rest.subarray(newline + 1);
    }
  }

  /** Forgets any partial line. */
  clear(): void {
    this.#chunks = [];
    this.#length = 0;
    this.#discard = undefined;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    const discard = this.#discard;
    if (discard !== undefined) {
      discard.bytes += piece.length;
      discard.tail = lastBytes(Buffer.concat([discard.tail, lastBytes(piece)]));
      return;
    }
    this.#chunks.push(piece);
    this.#length += piece.length;
    if (this.#length > this.#max) {
      const all = Buffer.concat(this.#chunks);
      this.#discard = {
        head: Buffer.from(all.subarray(0, EDGE_BYTES)),
        tail: Buffer.from(lastBytes(all)),
        bytes: all.length,
      };
      this.#chunks = [];
      this.#length = 0;
    }
  }

  #endLine(): ReadLine {
    const discard = this.#discard;
    if (discard !== undefined) {
      this.#discard = undefined;
      const head = HEAD_ID.exec(discard.head.toString('utf8'))?.[1];
      const tail = TAIL_ID.exec(discard.tail.toString('utf8').replace(/\r$/, ''))?.[1];
      const id = parseId(head) ?? parseId(tail);
      return { kind: 'oversized', bytes: discard.bytes, ...(id === undefined ? {} : { id }) };
    }
    const text = Buffer.concat(this.#chunks, this.#length).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#length = 0;
    return { kind: 'line', text };
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}
