/**
 * The loop as a host: `createAgent` on the scripted model, a real `HookStack`, the scenario's
 * tools in a `ToolRegistry`, one `session.run`; the turn's end read back from its transcript.
 */
import type { ContentBlock, Message } from '../../../src/content/index.ts';
import { parsePermissionRule } from '../../../src/hooks/permissions/permission-rule.ts';
import { HookStack } from '../../../src/hooks/stack/hook-stack.ts';
import { createAgent, readTranscript, type RunHandle } from '../../../src/loop/index.ts';
import { ToolRegistry } from '../../../src/loop/tool-registry.ts';
import type { Tool } from '../../../src/loop/tool.ts';
import { createScriptedModel, type ScriptedTurn } from '../../../src/testing.ts';
import type { Answer, HostOutcome, Scenario } from '../scenarios.ts';
import { turnEndOf, type Project } from './shared.ts';

function turnOf(answer: Answer): ScriptedTurn {
  if ('call' in answer)
    return {
      blocks: [
        {
          type: 'tool_call',
          id: answer.call.id,
          name: answer.call.name,
          parameters: answer.call.args,
        },
      ],
      finishReason: 'tool_calls',
    };
  return { blocks: [{ type: 'text', text: answer.text }], finishReason: answer.finish ?? 'stop' };
}

function tools(ran: unknown[], abort: () => void): Tool[] {
  const object = { type: 'object', properties: { text: { type: 'string' } } } as const;
  return [
    {
      declaration: { name: 'echo', parameters: object },
      execute: async (args) => {
        ran.push(args);
        return args;
      },
    },
    {
      declaration: { name: 'explode', parameters: { type: 'object', properties: {} } },
      execute: async (args) => {
        ran.push(args);
        throw new Error('the disk is on fire');
      },
    },
    {
      declaration: { name: 'halt', parameters: { type: 'object', properties: {} } },
      execute: (args, { signal }) => {
        ran.push(args);
        abort();
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        });
      },
    },
  ];
}

/** What the model received after its previous answer, normalised (see `HostOutcome.seen`). */
function seenOf(contents: readonly Message[]): string[] {
  let start = contents.length;
  while (start > 0 && contents[start - 1]?.speaker !== 'ai') start--;
  const lines: string[] = [];
  for (const message of contents.slice(start)) {
    if (message.speaker === 'human') {
      lines.push(`user: ${textsOf(message.blocks).join(' ')}`);
      continue;
    }
    for (const block of message.blocks) {
      if (block.type === 'tool_response') {
        lines.push(
          block.error === undefined
            ? `tool ${block.toolName}: ${typeof block.result === 'string' ? block.result : JSON.stringify(block.result)}`
            : `tool ${block.toolName} error: ${block.error}`,
        );
      } else if (block.type === 'text') lines.push(`  + ${block.text}`);
    }
  }
  return lines;
}

function textsOf(blocks: readonly ContentBlock[]): string[] {
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

export async function runOnLoop(
  scenario: Scenario,
  project: Project,
  streaming: boolean,
): Promise<HostOutcome> {
  const log: string[] = [];
  const ran: unknown[] = [];
  const reports: string[] = [];
  let handle: RunHandle | undefined;
  const model = createScriptedModel(scenario.script.map(turnOf), { keepRequests: true });
  const rule = (source: string) => {
    const parsed = parsePermissionRule(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  const agent = createAgent({
    model,
    tools: new ToolRegistry(
      tools(ran, () => {
        handle?.cancel('the user pressed Esc');
      }),
    ),
    hooks: new HookStack([scenario.hook(log)]),
    cwd: project.dir,
    ...(scenario.stopContinuationsPerTurn === undefined
      ? {}
      : { stopContinuationsPerTurn: scenario.stopContinuationsPerTurn }),
    ...(scenario.ask === undefined
      ? {}
      : { permissions: { rules: { allow: [], deny: [], ask: scenario.ask.map(rule) } } }),
  });
  const session = await agent.openSession();
  try {
    handle = session.run('Do the task', { streaming });
    for await (const event of handle)
      if (event.type === 'hook-report') reports.push(event.report.text);
    await handle.result;
  } finally {
    await session.close();
  }
  const { records } = await readTranscript(session.transcriptPath);
  return {
    log,
    seen: model.requests.map((request) => seenOf(request.contents)),
    end: turnEndOf(records),
    ran,
    reports,
  };
}
