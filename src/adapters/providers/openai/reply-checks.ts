/**
 * Checks that a 200 reply is what the OpenAI surfaces promise before it is read as an answer: a
 * blocking call must get a JSON object of the expected shape, and a stream must end with a finish
 * reason (Chat Completions) or a terminal event (Responses). Anything else — an HTML page from a
 * proxy or a wrong base URL, a JSON body where a stream was asked for, a stream cut short — is a
 * `ModelError`, never a `completed` empty or cut-off answer. The Anthropic and Gemini adapters
 * fail the same way.
 */
import { ModelError } from '../../../content/index.ts';

/** The HTTP fields of a reply that a failure message names. */
export interface ReplyInfo {
  readonly status: number;
  readonly contentType: string | null;
}

/** What the SDK's `withResponse()` hands back beside the data. */
export function replyInfoOf(response: Response): ReplyInfo {
  return { status: response.status, contentType: response.headers.get('content-type') };
}

const PREVIEW = 80;

function preview(data: unknown): string {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      // `JSON.stringify(undefined)` is undefined, whatever its declared type says.
      const json = JSON.stringify(data) as string | undefined;
      text = json ?? String(data);
    } catch {
      text = String(data);
    }
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'an empty body';
  return JSON.stringify(flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat);
}

function describeReply(reply: ReplyInfo): string {
  return `HTTP ${reply.status} with ${reply.contentType === null || reply.contentType === '' ? 'no content type' : reply.contentType}`;
}

/**
 * The error for a blocking call whose reply is not the expected JSON object (`expected` names
 * it, e.g. "a Chat Completions object"). Kind `server`: the server broke the protocol.
 */
export function notAnAnswerError(
  provider: string,
  expected: string,
  reply: ReplyInfo,
  data: unknown,
): ModelError {
  return new ModelError({
    kind: 'server',
    provider,
    status: reply.status,
    message: `The ${provider} server answered ${describeReply(reply)}, which is not ${expected} (it starts ${preview(data)}); check the base URL (it should end with the API version, e.g. /v1) and that the server speaks the OpenAI API`,
  });
}

/**
 * The error for a stream that ended without its terminal part (`terminal` names it, e.g. "a
 * finish reason"). With no event at all the reply was not a stream; otherwise it was cut short.
 * Kind `network`, as the other adapters report a cut stream.
 */
export function unfinishedStreamError(
  provider: string,
  terminal: string,
  reply: ReplyInfo,
  events: number,
): ModelError {
  const how =
    events === 0
      ? `the server answered ${describeReply(reply)} and no server-sent events, so it is not streaming (check the base URL, or use the blocking surface)`
      : `the stream ended after ${events} event(s) without ${terminal}, so the answer was cut short`;
  return new ModelError({
    kind: 'network',
    provider,
    status: reply.status,
    message: `The ${provider} stream gave no answer: ${how}`,
  });
}

/** True when `value` is a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
