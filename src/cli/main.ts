#!/usr/bin/env node
/**
 * The `hookwire` executable: `node src/cli/main.ts …` from the sources (Node 24 strips types)
 * or `dist/cli/main.js` once built. See `program.ts` for the commands.
 *
 * The command is kept alive until it settles: the work it awaits may wait only on handles that
 * do not keep Node's event loop running (the closing-hook budget's `AbortSignal.timeout`, an idle
 * spawn helper), and an empty event loop under a pending top-level await would end the process
 * with status 13 ("unsettled top-level await") instead of the documented one.
 */
import { enableCompileCache } from 'node:module';

// Node caches the compiled code of every module it loads (in the OS temporary directory, or
// NODE_COMPILE_CACHE), so each later start skips most of parsing and compiling.
enableCompileCache();
const { createProgram } = await import('./program.ts');

const keepAlive = setInterval(() => undefined, 2 ** 30);
try {
  await createProgram().parseAsync(process.argv);
} finally {
  clearInterval(keepAlive);
}
