/**
 * An existing AI SDK app that gains hookwire's hooks by wrapping its calls: a guard from a
 * settings file (`hooks.json`, a command hook) and an in-process hook, both on the same events.
 * The model is the AI SDK's own mock (`ai/test`) so the example needs no API key; put
 * `openai('gpt-5')` (from `@ai-sdk/openai`) in its place for a real one.
 *
 *   node examples/ai-sdk/app.ts
 */
import { isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { createHookwire, type AgentHook } from '../../src/ai-sdk.ts';

const here = import.meta.dirname;

/** In process: what the model sees of a tool result is capped (the app keeps the whole output). */
const capOutput: AgentHook = {
  name: 'cap-output',
  onToolResult(_context, event) {
    const text =
      typeof event.presentation === 'string'
        ? event.presentation
        : JSON.stringify(event.presentation);
    return text.length > 40
      ? { kind: 'rewrite', presentation: `${text.slice(0, 40).replaceAll('\n', ' ')}… (truncated)` }
      : { kind: 'keep' };
  },
};

const usage = {
  inputTokens: { total: 50, noCache: 50, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** What the model saw for each tool result so far. */
function toolOutputs(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' && part.output.type === 'text'
            ? [part.output.value]
            : part.type === 'tool-result' && part.output.type === 'error-text'
              ? [part.output.value]
              : [],
        )
      : [],
  );
}

function callCommand(command: string): LanguageModelV4GenerateResult {
  return {
    content: [
      {
        type: 'tool-call',
        toolCallId: `call-${command.length}`,
        toolName: 'run_command',
        input: JSON.stringify({ command }),
      },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** The model: asks to wipe the build folder, then to list it, then reports what it saw. */
function answer(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
  const seen = toolOutputs(options);
  if (seen.length === 0) return callCommand('rm -rf build');
  if (seen.length === 1) return callCommand('ls build');
  return {
    content: [{ type: 'text', text: `Denied: ${seen[0] ?? ''}. Listing: ${seen[1] ?? ''}` }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

const ran: string[] = [];
const tools = {
  run_command: tool({
    description: 'Run a shell command',
    inputSchema: jsonSchema<{ command: string }>({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    }),
    execute: ({ command }: { command: string }) => {
      ran.push(command);
      return `${command}:\n${'artifact.o\n'.repeat(40)}`;
    },
  }),
};

// The three lines that add hookwire to the app:
const hw = await createHookwire({ cwd: here, settings: ['hooks.json'], hooks: [capOutput] });
try {
  const result = await hw.generateText({
    model: new MockLanguageModelV4({ doGenerate: (options) => Promise.resolve(answer(options)) }),
    tools,
    prompt: 'Clean up the build folder',
    stopWhen: isStepCount(4),
  });
  console.log(`commands run: ${ran.join(', ')}`);
  console.log(`answer: ${result.text}`);
} finally {
  await hw.close();
}
