/**
 * `hookwire run "PROMPT" --restate INGRESS_URL [--resume ID]`: submits one turn to the session
 * object `hookwire-session` through Restate's ingress and prints its result in the run's output
 * format (text: the answer; json: the result object; stream-json: the result line). Without
 * `--resume` the turn opens a new session (a fresh id); with it, the turn continues that
 * session's history. An idempotency key makes a retried submission the same turn.
 */
import { randomUUID } from 'node:crypto';
import { CliError } from '../cli-error.ts';
import { writeStdout } from '../output/stdout.ts';
import type { RunCommandOptions } from './run.ts';

/** The result object a durable turn answers with (`--output-format json`'s). */
interface DurableAnswer {
  readonly sessionId: string;
  readonly status: string;
  readonly result: string;
  readonly reason?: string;
}

export async function runDurableCommand(
  prompt: string | undefined,
  options: Omit<RunCommandOptions, 'model'> & { readonly restate: string },
): Promise<number> {
  if (prompt === undefined || prompt.trim() === '')
    throw new CliError('The prompt is empty: give the agent something to do.');
  const sessionId = options.resume ?? randomUUID();
  const url = new URL(`/hookwire-session/${encodeURIComponent(sessionId)}/run`, options.restate);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ prompt }),
    });
  } catch (error) {
    throw new CliError(
      `Restate's ingress at ${options.restate} did not answer (${error instanceof Error ? error.message : String(error)}); start restate-server and a hookwire worker first.`,
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new CliError(
      `The session object at ${url.href} failed: HTTP ${response.status} ${text.slice(0, 500)}`,
    );
  const answer = JSON.parse(text) as DurableAnswer;
  if (options.outputFormat === 'json') writeStdout(`${text}\n`);
  else if (options.outputFormat === 'stream-json')
    writeStdout(`${JSON.stringify({ type: 'result', ...answer })}\n`);
  else {
    writeStdout(`${answer.result}\n`);
    process.stderr.write(`hookwire: session ${answer.sessionId} (--resume ${answer.sessionId})\n`);
  }
  return answer.status === 'completed' ? 0 : answer.status === 'cancelled' ? 130 : 1;
}
