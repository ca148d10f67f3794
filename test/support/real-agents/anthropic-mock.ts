/**
 * A loopback Anthropic Messages API for the real Claude Code (`ANTHROPIC_BASE_URL`): every
 * request is recorded, and `/v1/messages` is answered by a script as a streamed message (SSE,
 * as Claude Code asks) of one text block or one `tool_use` block. Side requests (title and
 * summary calls, token counts) get a short text.
 */
import {
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type ScriptedReply,
  type ServerSentEvent,
} from '../loopback-server.ts';

export type MockBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
    };

export interface MessagesBody {
  readonly model: string;
  readonly tools?: readonly { readonly name: string }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly system?: unknown;
  readonly stream?: boolean;
}

/** A streamed Messages API answer of one block. */
export function messageStream(model: string, block: MockBlock, id = 'msg_mock'): ScriptedReply {
  const events: ServerSentEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    },
    {
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index: 0,
        content_block:
          block.type === 'text'
            ? { type: 'text', text: '' }
            : { type: 'tool_use', id: block.id, name: block.name, input: {} },
      },
    },
    {
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index: 0,
        delta:
          block.type === 'text'
            ? { type: 'text_delta', text: block.text }
            : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      },
    },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: {
          stop_reason: block.type === 'text' ? 'end_turn' : 'tool_use',
          stop_sequence: null,
        },
        usage: { output_tokens: 5 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
  return { type: 'sse', events };
}

/** The same answer as one JSON message (a client that does not stream). */
export function messageJson(model: string, block: MockBlock, id = 'msg_mock'): ScriptedReply {
  return {
    type: 'json',
    body: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: block.type === 'text' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  };
}

export const isMessages = (request: RecordedRequest): boolean =>
  request.method === 'POST' &&
  request.path.startsWith('/v1/messages') &&
  !request.path.includes('count_tokens');

/** A request of the agent's own loop (it offers a shell tool: Claude's Bash, hookwire's shell). */
export const isAgentCall = (request: RecordedRequest): boolean =>
  isMessages(request) &&
  ((request.body as MessagesBody).tools ?? []).some(
    (tool) => tool.name === 'Bash' || tool.name === 'shell',
  );

/** The `tool_result` blocks of a request's last message. */
export function toolResultsOf(
  request: RecordedRequest,
): { content: unknown; is_error?: boolean }[] {
  const last = (request.body as MessagesBody).messages.at(-1);
  return Array.isArray(last?.content)
    ? (last.content as { type: string; content: unknown; is_error?: boolean }[]).filter(
        (part) => part.type === 'tool_result',
      )
    : [];
}

/**
 * Starts the mock; `script` answers each agent call by its index among the agent calls so far
 * (0 for the first) with a block. Other requests get a text.
 */
export async function startAnthropicMock(): Promise<AnthropicMock> {
  return new AnthropicMock(await startLoopbackServer());
}

export class AnthropicMock {
  readonly server: LoopbackServer;
  constructor(server: LoopbackServer) {
    this.server = server;
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The agent calls recorded so far. */
  agentCalls(): RecordedRequest[] {
    return this.server.requests.filter(isAgentCall);
  }

  /** When each agent call arrived (`performance.now()`), in order, since the last `script`. */
  times: number[] = [];

  script(answer: (index: number, request: RecordedRequest) => MockBlock): void {
    this.server.reset();
    this.times = [];
    let index = 0;
    this.server.replyWith((request) => {
      if (!isMessages(request))
        return {
          type: 'json',
          status: 404,
          body: { type: 'error', error: { type: 'not_found_error', message: request.path } },
        };
      const body = request.body as MessagesBody;
      if (!isAgentCall(request)) return messageStream(body.model, { type: 'text', text: 'ok' });
      const block = answer(index, request);
      this.times.push(performance.now());
      index++;
      if (body.stream !== true) return messageJson(body.model, block, `msg_${index}`);
      return messageStream(body.model, block, `msg_${index}`);
    });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
