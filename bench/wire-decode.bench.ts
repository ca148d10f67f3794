/**
 * What decoding a hook's v2 payload costs beside what reading it costs anyway: every decode
 * follows a `JSON.parse` of the hook's stdout, so that parse is the baseline. Decoding validates
 * with zod and returns the original references (no copy of contents or blocks).
 */
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import type * as EventsModule from '../src/events/index.ts';
import type * as WireModule from '../src/wire/index.ts';

const { decodeHookOutput } = await load<typeof EventsModule>('events/index');
const { decodeHookLLMRequest } = await load<typeof WireModule>('wire/index');

function conversation(turns: number) {
  const contents = [];
  for (let turn = 0; turn < turns; turn++) {
    contents.push({
      speaker: 'human',
      blocks: [{ type: 'text', text: `Step ${turn}: read the next file, please.` }],
    });
    contents.push({
      speaker: 'ai',
      blocks: [
        {
          type: 'thinking',
          thought: 'The user wants the next file.',
          signature: 'EqQBCkgIARABGAIiQ'.repeat(4),
        },
        {
          type: 'tool_call',
          id: `call_${turn}`,
          name: 'read_file',
          parameters: { path: `src/file-${turn}.ts` },
        },
      ],
    });
    contents.push({
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: `call_${turn}`,
          toolName: 'read_file',
          result: { content: 'x'.repeat(400) },
        },
      ],
    });
  }
  return {
    version: 2,
    model: 'claude-sonnet',
    contents,
    settings: { temperature: 0.2, maxOutputTokens: 4096 },
  };
}

export default async function run(): Promise<void> {
  console.log(`    ${timing()}`);
  const request = conversation(20);
  const requestText = JSON.stringify(request);
  await compare(
    'decodeHookLLMRequest, 60 messages (baseline: JSON.parse of the same payload)',
    () => decodeHookLLMRequest(request),
    () => JSON.parse(requestText) as unknown,
    { rounds: 30, operationsPerSample: 200 },
  );
  const output = {
    decision: 'allow',
    hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: request },
  };
  const outputText = JSON.stringify(output);
  await compare(
    'decodeHookOutput BeforeModel with a 60-message llm_request (baseline: JSON.parse)',
    () => decodeHookOutput('BeforeModel', output),
    () => JSON.parse(outputText) as unknown,
    { rounds: 30, operationsPerSample: 200 },
  );
  const small = {
    decision: 'deny',
    reason: 'outside the workspace',
    hookSpecificOutput: { permissionDecision: 'deny' },
  };
  const smallText = JSON.stringify(small);
  await compare(
    'decodeHookOutput PreToolUse deny (baseline: JSON.parse)',
    () => decodeHookOutput('PreToolUse', small),
    () => JSON.parse(smallText) as unknown,
    { rounds: 30, operationsPerSample: 2000, unit: 'ns' },
  );
}
