/**
 * Collects one output stream of a hook, keeping at most `limit` bytes. Bytes beyond the limit are
 * dropped as they arrive (the caller keeps draining the pipe), so memory stays bounded whatever
 * the hook writes; `truncated` reports that something was dropped.
 */
export class BoundedOutput {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #kept = 0;
  #truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  push(chunk: Buffer): void {
    const room = this.#limit - this.#kept;
    if (chunk.length <= room) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
      return;
    }
    if (chunk.length > 0) this.#truncated = true;
    if (room > 0) {
      this.#chunks.push(chunk.subarray(0, room));
      this.#kept = this.#limit;
    }
  }

  /** Stops keeping anything (once the outcome has been taken): later chunks are dropped. */
  discardFurther(): void {
    this.#kept = this.#limit;
    this.#chunks = [];
  }

  /**
   * The kept bytes. When truncated, an incomplete UTF-8 sequence at the cut is dropped so the
   * decoded text does not end in a replacement character.
   */
  bytes(): Buffer {
    const joined =
      this.#chunks.length === 1
        ? (this.#chunks[0] ?? Buffer.alloc(0))
        : Buffer.concat(this.#chunks);
    return this.#truncated ? joined.subarray(0, completeUtf8Length(joined)) : joined;
  }
}

/** The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence. */
export function completeUtf8Length(bytes: Buffer): number {
  const end = bytes.length;
  // A sequence is at most 4 bytes, so only the last 3 bytes can start an incomplete one.
  for (let index = end - 1; index >= 0 && index >= end - 3; index--) {
    const byte = bytes[index] ?? 0;
    if ((byte & 0b1100_0000) === 0b1000_0000) continue; // a continuation byte
    const sequenceLength =
      byte < 0b1000_0000 ? 1 : byte >= 0b1111_0000 ? 4 : byte >= 0b1110_0000 ? 3 : 2;
    return index + sequenceLength > end ? index : end;
  }
  return end;
}
