/**
 * The relay's wire between a client (native or Node) and a project's daemon, over the project's
 * Unix socket; one connection per event:
 *
 * - request: `HWR1 <build> <tool>\n`, then the payload's bytes; the client then shuts its side.
 * - answer: `ok <exit> <stdout bytes>\n`, the stdout bytes, then the stderr bytes to the end; or
 *   `stale <build>\n` from a daemon of another build, which then exits (the client starts the
 *   current build's daemon and asks again).
 */
import type { RelayAnswer } from './relay-dialects.ts';

export interface RelayRequest {
  readonly build: string;
  readonly tool: string;
  readonly payload: string;
}

export function encodeRequest(request: RelayRequest): Buffer {
  return Buffer.concat([
    Buffer.from(`HWR1 ${request.build} ${request.tool}\n`),
    Buffer.from(request.payload, 'utf8'),
  ]);
}

/** The request in `bytes`, or `undefined` for bytes that are not one. */
export function decodeRequest(bytes: Buffer): RelayRequest | undefined {
  const newline = bytes.indexOf(10);
  if (newline === -1) return undefined;
  const [magic, build, tool] = bytes.subarray(0, newline).toString('utf8').split(' ');
  if (magic !== 'HWR1' || build === undefined || tool === undefined) return undefined;
  return { build, tool, payload: bytes.subarray(newline + 1).toString('utf8') };
}

export function encodeAnswer(answer: RelayAnswer): Buffer {
  const stdout = Buffer.from(answer.stdout, 'utf8');
  return Buffer.concat([
    Buffer.from(`ok ${answer.exit} ${stdout.length}\n`),
    stdout,
    Buffer.from(answer.stderr, 'utf8'),
  ]);
}

/** The answer in `bytes`; `stale` for a daemon of another build; `undefined` for garbage. */
export function decodeAnswer(bytes: Buffer): RelayAnswer | 'stale' | undefined {
  const newline = bytes.indexOf(10);
  if (newline === -1) return undefined;
  const head = bytes.subarray(0, newline).toString('utf8').split(' ');
  if (head[0] === 'stale') return 'stale';
  if (head[0] !== 'ok' || head.length !== 3) return undefined;
  const exit = Number(head[1]);
  const length = Number(head[2]);
  if (!Number.isInteger(exit) || !Number.isInteger(length)) return undefined;
  const body = bytes.subarray(newline + 1);
  return {
    exit,
    stdout: body.subarray(0, length).toString('utf8'),
    stderr: body.subarray(length).toString('utf8'),
  };
}
