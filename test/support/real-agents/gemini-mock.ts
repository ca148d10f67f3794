/**
 * A loopback Gemini API for the real Gemini CLI (`GOOGLE_GEMINI_BASE_URL`): every request is
 * recorded; `…:streamGenerateContent` answers one SSE chunk and `…:generateContent` one JSON
 * response, of one text part or one function call, by a script over the agent's calls (requests
 * that offer `run_shell_command`); other calls get a short text; `…:countTokens` a count.
 */
import {
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../loopback-server.ts';

export type GeminiPart =
  | { readonly text: string }
  | { readonly functionCall: { readonly name: string; readonly args: unknown } };

function response(part: GeminiPart): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-pro',
  };
}

function reply(request: RecordedRequest, part: GeminiPart): ScriptedReply {
  return request.path.includes(':streamGenerateContent')
    ? { type: 'sse', events: [{ data: response(part) }] }
    : { type: 'json', body: response(part) };
}

export const isAgentCall = (request: RecordedRequest): boolean =>
  request.path.includes('enerateContent') &&
  JSON.stringify(request.body).includes('run_shell_command');

export class GeminiMock {
  readonly server: LoopbackServer;
  constructor(server: LoopbackServer) {
    this.server = server;
  }

  get origin(): string {
    return this.server.origin;
  }

  agentCalls(): RecordedRequest[] {
    return this.server.requests.filter(isAgentCall);
  }

  script(answer: (index: number, request: RecordedRequest) => GeminiPart): void {
    this.server.reset();
    let index = 0;
    this.server.replyWith((request) => {
      if (request.path.includes(':countTokens')) return { type: 'json', body: { totalTokens: 10 } };
      if (!request.path.includes('enerateContent'))
        return { type: 'json', status: 404, body: { error: { code: 404, message: request.path } } };
      if (!isAgentCall(request)) return reply(request, { text: '{}' });
      return reply(request, answer(index++, request));
    });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

export async function startGeminiMock(): Promise<GeminiMock> {
  return new GeminiMock(await startLoopbackServer());
}
