/**
 * hookwire's standard output, written with `writeSync(1, …)` rather than through
 * `process.stdout`.
 *
 * Why: the first touch of `process.stdout` builds Node's stream for fd 1 and loads the streams
 * implementation with it (`net` for a pipe, `SyncWriteStream` for a file or /dev/null): about
 * 5 ms of a start, a twentieth of `hookwire run`. On Linux `process.stdout` writes synchronously
 * to files, pipes and terminals anyway, so a direct write keeps the same ordering and blocking.
 *
 * A descriptor another program left non-blocking can refuse a write (`EAGAIN`): from then on
 * everything goes through `process.stdout`, which waits for it, in order. A reader that went away
 * (`hookwire … | head -1`, `EPIPE`) ends hookwire quietly with 141, as SIGPIPE would, like every
 * command-line tool, on either path.
 */
import { writeSync } from 'node:fs';

/** Exit status when stdout's reader went away: what a shell reports for a process killed by SIGPIPE. */
export const EXIT_BROKEN_PIPE = 141;

let stream: NodeJS.WriteStream | undefined;

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

/** `process.stdout`, with the broken-pipe rule installed the first time it is used. */
function stdoutStream(): NodeJS.WriteStream {
  if (stream === undefined) {
    stream = process.stdout;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
      throw error;
    });
  }
  return stream;
}

/** Writes `text` to standard output, in order with every earlier write. */
export function writeStdout(text: string): void {
  if (stream !== undefined) {
    stream.write(text);
    return;
  }
  let bytes: Buffer | undefined;
  let offset = 0;
  try {
    // The common case, one call: a string written whole.
    const written = writeSync(1, text);
    if (written === Buffer.byteLength(text)) return;
    bytes = Buffer.from(text);
    offset = written;
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (error) {
    if (isErrno(error, 'EPIPE')) process.exit(EXIT_BROKEN_PIPE);
    if (!isErrno(error, 'EAGAIN')) throw error;
    // What was not written yet goes through the stream, and so does every later write.
    const rest = bytes === undefined ? text : bytes.subarray(offset);
    stdoutStream().write(rest);
  }
}
