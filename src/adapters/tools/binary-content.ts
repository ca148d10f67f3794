/** How many leading bytes are inspected to decide whether content is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * True when `bytes` looks like binary data: a NUL byte within the first 8 KiB, the heuristic git
 * and grep use. UTF-8 and other text encodings never contain NUL in ordinary text.
 */
export function isBinaryContent(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}
