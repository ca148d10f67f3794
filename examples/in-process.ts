/**
 * An agent built in code: an in-process guard and the command hooks of a settings file compose
 * in one HookStack, and the built-in scripted model answers (no API key needed).
 *
 *   node examples/in-process.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HookStack,
  ToolCallAction,
  ToolRegistry,
  builtinTools,
  createAgent,
  createCommandHooks,
  createCommandRunner,
  loadSettings,
  type AgentHook,
} from '../src/index.ts';
import { createScriptedModel } from '../src/testing.ts';

/** Refuses to read dotenv files, whatever path the model asks for. */
const noSecrets: AgentHook = {
  name: 'no-secrets',
  onToolCall(_context, event) {
    const path = (event.args as { path?: unknown }).path;
    return event.toolName === 'read_file' && typeof path === 'string' && /(^|\/)\.env/.test(path)
      ? ToolCallAction.skip('reading .env files is not allowed')
      : ToolCallAction.run();
  },
};

const project = await mkdtemp(join(tmpdir(), 'hookwire-example-'));
await writeFile(join(project, '.env'), 'TOKEN=secret\n');
const settingsFile = join(project, 'settings.json');
await writeFile(
  settingsFile,
  JSON.stringify({
    hooks: {
      PostToolUse: [
        {
          hooks: [
            {
              type: 'command',
              command: `cat >> "$HOOKWIRE_PROJECT_DIR/tool-log.jsonl"; echo >> "$HOOKWIRE_PROJECT_DIR/tool-log.jsonl"`,
            },
          ],
        },
      ],
    },
  }),
);

const runner = createCommandRunner();
const settings = await loadSettings({ projectDir: project, extraFiles: [settingsFile] });
const hooks = new HookStack([noSecrets, ...createCommandHooks(settings, { runner })]);
const model = createScriptedModel([
  {
    blocks: [{ type: 'tool_call', id: 'call_1', name: 'read_file', parameters: { path: '.env' } }],
    finishReason: 'tool_calls',
  },
  { blocks: [{ type: 'text', text: 'I may not read .env, so I did not.' }], finishReason: 'stop' },
]);

const agent = createAgent({
  model,
  tools: new ToolRegistry(builtinTools({ shell: { runner } })),
  hooks,
  cwd: project,
});
const session = await agent.openSession();
for await (const event of session.run('What is in .env?', { streaming: true })) {
  if (event.type === 'tool-result') console.log('tool result:', event.error ?? event.result);
  if (event.type === 'final') console.log('answer:', event.result.result);
}
await session.close('exit');
await runner.close();
await rm(project, { recursive: true, force: true });
