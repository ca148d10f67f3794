/**
 * The process the shell analysis runs in (started by `shell-analyzer.ts` with `node
 * --liftoff-only`): reads one JSON request per line on stdin, `{"id": N, "command": "…"}`, and
 * answers each with one line on stdout, `{"id": N, "analysis": ShellAnalysis}`. It exits when
 * stdin closes.
 *
 * Why a process: V8 compiles a hot WebAssembly function again with its optimising compiler, and
 * the bash grammar's lexer is one 160 KB function; optimising it took 1.5–2 s of CPU time and
 * about 500 MB of memory, and a process cannot exit while that compilation runs. `--liftoff-only`
 * (a V8 flag, only settable when a process starts) keeps the baseline compiler, which parses a
 * 20,000-character command in milliseconds anyway.
 */
import { createInterface } from 'node:readline';
import { analyzeWith } from './shell-analysis.ts';
import { shellParser } from './shell-parser.ts';

const parser = await shellParser();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === '') continue;
  let id: unknown;
  try {
    const request = JSON.parse(line) as { id?: unknown; command?: unknown };
    id = request.id;
    if (typeof request.command !== 'string') throw new Error('a request needs a command string');
    process.stdout.write(
      `${JSON.stringify({ id, analysis: analyzeWith(parser, request.command) })}\n`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ id, error: message })}\n`);
  }
}
