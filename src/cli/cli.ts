/**
 * The command line once the Node.js version is known to be supported (see `main.ts`): the
 * program of `program.ts`. Standard output goes through `output/stdout.ts`, which also ends
 * hookwire quietly (141) when stdout's reader goes away (`hookwire … | head -1`).
 */
import { createProgram } from './program.ts';

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
