#!/usr/bin/env node
/**
 * The `hookwire` executable: `node src/cli/main.ts …` from the sources (Node 24 strips types)
 * or `dist/cli/main.js` once built. See `program.ts` for the commands.
 */
import { createProgram } from './program.ts';

await createProgram().parseAsync(process.argv);
