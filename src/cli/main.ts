#!/usr/bin/env node
/**
 * The `hookwire` executable: `node src/cli/main.ts …` from the sources (Node 24 strips types)
 * or `dist/cli/main.js` once built. It checks the Node.js version first and only then loads the
 * CLI (`cli.ts`, then `program.ts` for the commands): static imports are evaluated before any
 * code of the module runs, so the check lives in this module, which imports nothing statically
 * and is written in syntax every Node.js since 14 parses once types are stripped. On an older
 * Node.js it prints one line and exits 1, instead of failing later on a missing API
 * (`Map.groupBy`, `Promise.withResolvers`) with a stack trace.
 */
const REQUIRED_NODE_MAJOR = 22;
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (!(nodeMajor >= REQUIRED_NODE_MAJOR)) {
  process.stderr.write(
    `hookwire: Node.js ${REQUIRED_NODE_MAJOR} or newer is required, but this is Node.js ${process.versions.node} (${process.execPath}); install Node.js ${REQUIRED_NODE_MAJOR} or newer and run hookwire with it.\n`,
  );
  process.exit(1);
}
// Node caches the compiled code of every module it loads (in the OS temporary directory, or
// NODE_COMPILE_CACHE), so each later start skips most of parsing and compiling.
const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('./cli.ts');
