import { writeStdout } from '../output/stdout.ts';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { projectDirOf } from '../settings-options.ts';
import { renderTraceHtml } from '../telemetry/trace-html.ts';
import { traceModel } from '../telemetry/trace-model.ts';
import { readSessions } from '../telemetry/read-sessions.ts';

/** Options of `hookwire trace`. */
export interface TraceCommandOptions {
  /** Where to write the page; `-` for stdout. Default `<session-id>.trace.html` in the working directory. */
  readonly out?: string;
  readonly cwd?: string;
}

/**
 * `hookwire trace SESSION_ID [--out FILE]`: writes the session's timeline as one self-contained
 * HTML file and says where, with its counts. Lines a crash cut short are skipped with a warning.
 * Returns 0; an unknown session is an error.
 */
export async function traceCommand(
  sessionId: string,
  options: TraceCommandOptions,
): Promise<number> {
  const [session] = await readSessions(projectDirOf(options), [sessionId], 1);
  if (session === undefined) return 1;
  for (const warning of session.warnings) process.stderr.write(`hookwire: ${warning}\n`);
  const model = traceModel(session.sessionId, session.records, session.agents);
  const html = renderTraceHtml(model);
  if (options.out === '-') {
    writeStdout(html);
    return 0;
  }
  const file = resolve(options.out ?? `${session.sessionId}.trace.html`);
  await writeFile(file, html);
  const denials = model.decisions.deny + model.decisions.stop;
  const failures =
    model.problems.filter((run) => run.problem === 'failure').length + model.toolErrors.length;
  writeStdout(
    `Wrote ${file}: ${model.modelCallCount} model calls, ${model.hookRunCount} hook runs (${denials} denials or stops, ${failures} failures). Open it in a browser.\n`,
  );
  return 0;
}
