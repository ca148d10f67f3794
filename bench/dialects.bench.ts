/**
 * Dialect costs (`npm run bench -- dialects`), each figure beside its floor in the same run,
 * interleaved round by round, timing the built dist/ when it exists:
 * (a) loading a project whose hooks are in a realistic `.claude/settings.json` and
 *     `.gemini/settings.json` (guards with `if`, loggers, formatters, Stop and model hooks, an
 *     MCP server, the tools' own top-level keys) vs loading the same hooks from hookwire's own
 *     `.hookwire/settings.json` (what `hooks import` writes for them): bound 1.5×;
 * (b) a PreToolUse on `Bash` through a Claude Code command hook (the payload translated into
 *     Claude's names, the matcher and `if` matched in them, the answer read by Claude's rules)
 *     vs the same hook in hookwire's own dialect (`shell`, hookwire's names, no `if`): what the
 *     translation adds to a hook run, bound 1.05×. Both hooks are the same cheap process
 *     (`cat >/dev/null`, spawned per call), so the ratio is the translation over a real run;
 * (c) the same for the dialects with payloads of their own (Copilot CLI's `preToolUse`, Cursor's
 *     `beforeShellExecution`, Windsurf's `pre_run_command`): the payload rebuilt in the tool's
 *     shape (Copilot's `toolArgs` serialised to a string) and the answer read back by its rules,
 *     vs the same hook in hookwire's own dialect: bound 1.05× each.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import type * as CommandModule from '../src/hook-kinds/group/index.ts';
import type * as EventsModule from '../src/events/index.ts';
import type * as ImportModule from '../src/hook-kinds/dialects/import-settings.ts';
import type * as SettingsModule from '../src/hook-kinds/settings/index.ts';
import type * as AgentHookModule from '../src/hooks/agent-hook.ts';

const { createCommandHooks, createCommandRunner } =
  await load<typeof CommandModule>('hook-kinds/group/index');
const { loadSettings } = await load<typeof SettingsModule>('hook-kinds/settings/index');
const { importGroups, readDialectFiles } = await load<typeof ImportModule>(
  'hook-kinds/dialects/import-settings',
);
const { Scratchpad } = await load<typeof EventsModule>('events/index');

type AgentHook = AgentHookModule.AgentHook;

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: text,
  ...extra,
});

/** A realistic Claude Code file: guards, a formatter, loggers, Stop, the tool's own keys. */
function claudeFile(hook: string): unknown {
  return {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: { allow: ['Bash(npm test)', 'Read(./src/**)'], deny: ['Read(./.env)'] },
    env: { NODE_ENV: 'development' },
    model: 'claude-sonnet-4-5',
    enabledPlugins: {},
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [command(hook, { timeout: 10, statusMessage: 'Checking…' })],
        },
        { matcher: 'Write|Edit|MultiEdit', hooks: [command(`${hook} # env guard`)] },
        { matcher: 'Read', hooks: [command(`${hook} # read guard`, { if: 'Read(./.env)' })] },
        { matcher: 'mcp__.*', hooks: [command(`${hook} # mcp audit`)] },
      ],
      PostToolUse: [
        { matcher: 'Write|Edit', hooks: [command('npx prettier --write "$FILE" # fmt')] },
        { matcher: '', hooks: [command(`${hook} # logger`, { async: true })] },
      ],
      UserPromptSubmit: [{ hooks: [command('echo "branch: $(git branch --show-current)"')] }],
      Stop: [{ hooks: [command('npm test --silent # tests must pass', { timeout: 300 })] }],
      SubagentStop: [{ hooks: [command(`${hook} # subagent log`)] }],
      SessionStart: [{ matcher: 'startup', hooks: [command('cat .claude/context.md')] }],
      Notification: [{ hooks: [command('notify-send hookwire "$MESSAGE"', { once: true })] }],
    },
  };
}

/** A realistic Gemini CLI file: tool guards, agent hooks, a model hook, an MCP server. */
function geminiFile(hook: string): unknown {
  return {
    general: { vimMode: true },
    ui: { theme: 'GitHub' },
    hooksConfig: { disabled: ['legacy'] },
    mcpServers: { docs: { command: 'docs-server', args: ['--stdio'], disabled: true } },
    hooks: {
      BeforeTool: [
        { matcher: 'run_shell_command', hooks: [command(`${hook} # g`, { name: 'shell-guard' })] },
        { matcher: 'write_file|replace', hooks: [command(`${hook} # w`, { timeout: 5000 })] },
      ],
      AfterTool: [{ matcher: 'write_file', hooks: [command('eslint --fix "$FILE"')] }],
      BeforeAgent: [{ hooks: [command('git status --short', { name: 'status' })] }],
      AfterAgent: [{ hooks: [command(`${hook} # retry`, { name: 'legacy' })] }],
      BeforeModel: [{ hooks: [command(`${hook} # model`, { timeout: 2000 })] }],
    },
  };
}

async function project(directory: string, files: Record<string, unknown>): Promise<string> {
  for (const [path, value] of Object.entries(files)) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), JSON.stringify(value, null, 2));
  }
  return directory;
}

function context(cwd: string): EventsModule.HookContext {
  return {
    runId: 'bench',
    modelCall: 1,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a context still carries it
    turn: 1,
    isStreaming: false,
    agentName: undefined,
    signal: new AbortController().signal,
    session: { sessionId: 'bench', transcriptPath: join(cwd, 'transcript.jsonl'), cwd },
    scratchpad: new Scratchpad(),
    report: () => undefined,
  };
}

const toolCall: EventsModule.ToolCallEvent = {
  toolName: 'shell',
  toolCallId: 'call-1',
  args: { command: 'ls -la', description: 'list files' },
  originalArgs: { command: 'ls -la', description: 'list files' },
};

/** The one PreToolUse hook of `settings` whose matcher takes `shell`, as an `onToolCall`. */
function preToolUse(hooks: readonly AgentHook[]): NonNullable<AgentHook['onToolCall']> {
  const [hook] = hooks.filter((candidate) => candidate.onToolCall !== undefined);
  const method = hook?.onToolCall;
  if (hook === undefined || method === undefined) throw new Error('no PreToolUse hook');
  return method.bind(hook);
}

export default async function dialectsBenchmark(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'hookwire-dialects-bench-'));
  const home = join(directory, 'home');
  await mkdir(home);
  const env = { HOOKWIRE_HOME: home };
  const hook = 'cat >/dev/null';
  const runner = createCommandRunner();
  console.log(`    ${timing()}`);
  try {
    const foreign = await project(join(directory, 'foreign'), {
      '.claude/settings.json': claudeFile(hook),
      '.gemini/settings.json': geminiFile(hook),
    });
    const claude = await readDialectFiles('claude', { projectDir: foreign, env });
    const gemini = await readDialectFiles('gemini', { projectDir: foreign, env });
    const imported = importGroups([...claude.groups, ...gemini.groups]);
    const own = await project(join(directory, 'own'), {
      '.hookwire/settings.json': imported.settings,
    });
    const loadForeign = () => loadSettings({ projectDir: foreign, env });
    const loadOwn = () => loadSettings({ projectDir: own, env, dialects: false });
    const [a, b] = await Promise.all([loadForeign(), loadOwn()]);
    const count = (settings: SettingsModule.EffectiveSettings) =>
      Object.values(settings.events).reduce((sum, groups) => sum + groups.length, 0);
    if (count(a) !== count(b) || count(a) === 0)
      throw new Error(`the two projects load ${count(a)} and ${count(b)} groups`);
    await compare(
      `load ${count(a)} hook groups from .claude/ + .gemini/settings.json vs the same from .hookwire/settings.json`,
      loadForeign,
      loadOwn,
      { rounds: 30, operationsPerSample: 20, warmupRounds: 3, unit: 'µs', limit: 1.5 },
    );

    // (b): the Claude Bash guard vs the same hook in hookwire's own words.
    const claudeOnly = await project(join(directory, 'claude-only'), {
      '.claude/settings.json': {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [command(hook, { timeout: 10 })] }] },
      },
    });
    const ownOnly = await project(join(directory, 'own-only'), {
      '.hookwire/settings.json': {
        hooks: { PreToolUse: [{ matcher: 'shell', hooks: [command(hook, { timeout: '10s' })] }] },
      },
    });
    const options = (projectDir: string) => ({ runner, projectDir });
    const claudeHook = preToolUse(
      createCommandHooks(await loadSettings({ projectDir: claudeOnly, env }), options(claudeOnly)),
    );
    const ownHook = preToolUse(
      createCommandHooks(
        await loadSettings({ projectDir: ownOnly, env, dialects: false }),
        options(ownOnly),
      ),
    );
    const claudeContext = context(claudeOnly);
    const ownContext = context(ownOnly);
    const fire = async (
      method: NonNullable<AgentHook['onToolCall']>,
      at: EventsModule.HookContext,
    ) => {
      const action = await method(at, toolCall);
      if (action.kind !== 'run') throw new Error(`the hook answered ${action.kind}`);
    };
    await compare(
      'PreToolUse through a Claude Code Bash command hook vs the same hook in hookwire’s own dialect',
      () => fire(claudeHook, claudeContext),
      () => fire(ownHook, ownContext),
      { rounds: 40, operationsPerSample: 10, warmupRounds: 3, unit: 'µs', limit: 1.05 },
    );

    // (c): the envelope dialects' shell guards vs the same hook in hookwire's own words.
    const envelopeFiles: readonly [string, string, unknown][] = [
      [
        'a Copilot CLI preToolUse',
        '.github/hooks/guard.json',
        { version: 1, hooks: { preToolUse: [{ type: 'command', bash: hook, matcher: 'bash' }] } },
      ],
      [
        'a Cursor beforeShellExecution',
        '.cursor/hooks.json',
        { version: 1, hooks: { beforeShellExecution: [{ command: hook }] } },
      ],
      [
        'a Windsurf pre_run_command',
        '.windsurf/hooks.json',
        { hooks: { pre_run_command: [{ command: hook }] } },
      ],
    ];
    for (const [label, file, value] of envelopeFiles) {
      const root = await project(join(directory, file.split('/')[0] ?? 'envelope'), {
        [file]: value,
      });
      const foreignHook = preToolUse(
        createCommandHooks(await loadSettings({ projectDir: root, env }), options(root)),
      );
      const foreignContext = context(root);
      await compare(
        `PreToolUse through ${label} command hook vs the same hook in hookwire’s own dialect`,
        () => fire(foreignHook, foreignContext),
        () => fire(ownHook, ownContext),
        { rounds: 40, operationsPerSample: 10, warmupRounds: 3, unit: 'µs', limit: 1.05 },
      );
    }
  } finally {
    await runner.close();
    await rm(directory, { recursive: true, force: true });
  }
}
