/**
 * A tool's result enters the history, and from there every later request, which each provider
 * adapter encodes as JSON. A result JSON cannot encode (a `BigInt`, a cycle) would fail every
 * later model call of the session; it becomes the call's error instead, on the real loop, on
 * both surfaces, and every provider's request builder encodes the history afterwards.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/content/index.ts';
import { ContextAction, ToolResultAction } from '../../src/events/index.ts';
import { toAnthropicRequest } from '../../src/adapters/providers/anthropic/to-anthropic-request.ts';
import { toGeminiRequest } from '../../src/adapters/providers/google/to-gemini-request.ts';
import { buildChatRequest } from '../../src/adapters/providers/openai/chat-request.ts';
import { buildResponsesRequest } from '../../src/adapters/providers/openai/responses-request.ts';
import { readTranscript } from '../../src/loop/index.ts';
import type { Tool } from '../../src/loop/tool.ts';
import { callTools, collect, loggingHook, say, start, SURFACES } from './support.ts';

const cyclic: Record<string, unknown> = { name: 'node' };
cyclic.parent = cyclic;

const returning = (result: unknown): Tool => ({
  declaration: { name: 'inspect', parameters: { type: 'object' } },
  execute: async () => result,
});

/** Every provider's request body for `request`, encoded as the adapter would send it. */
function encodedForEveryProvider(request: ModelRequest): string[] {
  return [
    JSON.stringify(toAnthropicRequest(request, 'm')),
    JSON.stringify(toGeminiRequest(request, 'm')),
    JSON.stringify(buildChatRequest(request, { compatible: false })),
    JSON.stringify(
      buildResponsesRequest(request, { store: false, includeEncryptedReasoning: false } as never),
    ),
  ];
}

describe.each(SURFACES)('tool results JSON cannot encode ($name)', ({ streaming }) => {
  it.each([
    ['a BigInt', { rows: [{ count: 10n }] }, '$.rows[0].count: a BigInt'],
    ['a cycle', cyclic, '$.parent: a reference back to an object that contains it (a cycle)'],
  ])(
    'answers a result holding %s with an error, and the session goes on',
    async (_name, result, where) => {
      const failures: string[] = [];
      const { session, model } = await start({
        script: [callTools([{ id: 'c1', name: 'inspect', args: {} }]), say('saw it'), say('again')],
        tools: [returning(result)],
        hooks: [
          loggingHook([], {
            onToolFailure: (_context, event) => (
              failures.push(event.error),
              ContextAction.continue()
            ),
          }),
        ],
      });
      const first = await collect(session.run('look', { streaming }));
      expect(first.result.status).toBe('completed');
      const toolResult = first.events.find((event) => event.type === 'tool-result');
      expect(toolResult).toMatchObject({ toolCallId: 'c1', result: null });
      const error = toolResult?.type === 'tool-result' ? (toolResult.error ?? '') : '';
      expect(error).toContain(`tool "inspect" returned a result JSON cannot encode (${where}`);
      // The failure is the tool's: PostToolUseFailure sees it.
      expect(failures).toEqual([error]);

      // The request that carried the result back, and the next run's, encode for every provider.
      const second = await collect(session.run('once more', { streaming }));
      expect(second.result.status).toBe('completed');
      expect(model.requests).toHaveLength(3);
      for (const request of model.requests.slice(1))
        for (const body of encodedForEveryProvider(request))
          expect(body).toContain(`returned a result`);

      const { records } = await readTranscript(session.transcriptPath);
      expect(records.filter((record) => (record.type as string) === 'unencodable')).toEqual([]);
      await session.close('exit');
    },
  );

  it('keeps the tool result when a PostToolUse hook rewrites it to a value JSON cannot encode', async () => {
    const { session, model } = await start({
      script: [callTools([{ id: 'c1', name: 'inspect', args: {} }]), say('done')],
      tools: [returning({ ok: true })],
      hooks: [
        loggingHook([], {
          onToolResult: () => ToolResultAction.rewrite({ huge: 2n ** 70n }),
        }),
      ],
    });
    const { result, events } = await collect(session.run('look', { streaming }));
    expect(result.status).toBe('completed');
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      toolCallId: 'c1',
    });
    const warning = events.find(
      (event) => event.type === 'hook-report' && event.report.text.includes('PostToolUse'),
    );
    expect(warning?.type === 'hook-report' ? warning.report.text : '').toContain(
      'rewrote the result of call c1 (inspect) to a value JSON cannot encode ($.huge: a BigInt',
    );
    const answered = model.requests[1] as ModelRequest;
    const toolMessage = answered.contents.find((message) => message.speaker === 'tool');
    expect(toolMessage?.blocks[0]).toMatchObject({ type: 'tool_response', result: { ok: true } });
    for (const body of encodedForEveryProvider(answered)) expect(body).toContain('ok');
    await session.close('exit');
  });
});
