/**
 * The command line once the Node.js version is known to be supported (see `main.ts`): quiet on a
 * closed stdout, then the program of `program.ts`.
 */
import { createProgram } from './program.ts';

/** Exit status when stdout's reader went away: what a shell reports for a process killed by SIGPIPE. */
export const EXIT_BROKEN_PIPE = 141;

// `hookwire … | head -1`: once the reader closes the pipe, writes fail with EPIPE. Like every
// command-line tool, stop quietly then (Node ignores SIGPIPE, so without this handler the
// failed write would surface as an unhandled 'error' event with a stack trace).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
  throw error;
});

// The command is kept alive until it settles: the work it awaits may wait only on handles that
// do not keep Node's event loop running (the closing-hook budget's `AbortSignal.timeout`, an idle
// spawn helper), and an empty event loop under a pending top-level await would end the process
// with status 13 ("unsettled top-level await") instead of the documented one.
const keepAlive = setInterval(() => undefined, 2 ** 30);
try {
  await createProgram().parseAsync(process.argv);
} finally {
  clearInterval(keepAlive);
}
