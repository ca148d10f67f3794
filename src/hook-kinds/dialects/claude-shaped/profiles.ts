/**
 * The Claude-shaped family: tools whose hooks use Claude Code's envelope (the `hooks` object of
 * event → groups → `{type: "command", command, timeout}`, Claude Code's payloads and answers)
 * with other paths, a project-directory variable of their own, other tool names and, for some,
 * timeouts in milliseconds. Each is one `ClaudeProfile` below, not a dialect of its own:
 * `claude-shaped-dialect.ts` turns a profile into a `Dialect` over Claude Code's, and
 * `profileToolTable` its tools into a table over Claude Code's (`claude/claude-tools.ts`).
 * Adding a Claude-shaped tool is one entry here and its name in `dialect-names.ts`.
 *
 * A leaf beside the tables (it imports only the events' names and the table shape), so the
 * vocabulary and the dialects can both read it.
 */
import type { HookEventName } from '../../../events/index.ts';
import { CLAUDE_TOOLS } from '../claude/claude-tools.ts';
import { absolutePath, type ToolMapping } from '../tool-mapping.ts';

/** One Claude-shaped tool (see the module comment). */
export interface ClaudeProfile {
  /** How the tool calls itself in messages. */
  readonly title: string;
  /** Its settings files: user (`home`) and project ones, in load order within each layer. */
  readonly sources: readonly {
    readonly layer: 'user' | 'project' | 'local';
    readonly under: 'home' | 'project';
    readonly path: readonly string[];
    /** The events sit at the file's root (Factory's `hooks.json`), not under `hooks`. */
    readonly eventsAtRoot?: boolean;
  }[];
  /** The variable its hooks read the project directory from (beside `CLAUDE_PROJECT_DIR`). */
  readonly projectDirVariable?: string;
  /** hookwire tool → the tool's own mapping, where it differs from Claude Code's. */
  readonly tools: Readonly<Record<string, ToolMapping>>;
  /** Its tools hookwire has no counterpart of. */
  readonly toolsWithoutCounterpart: readonly string[];
  /** `timeout` in seconds (Claude Code's) or milliseconds. */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
  /** Its event names beside Claude Code's (Augment's `PromptSubmit`). */
  readonly eventAliases: Readonly<Record<string, HookEventName>>;
  /**
   * How its matchers name every MCP tool (`mcp:*`, `MCP:.*` for Augment): such a matcher matches
   * every `mcp__SERVER__TOOL`. Case-insensitive prefix, followed by `*`, `.*` or nothing.
   */
  readonly mcpMatcherPrefix?: string;
  /**
   * The fields its payloads add to Claude Code's (Augment's `conversation_id`, `workspace_roots`,
   * `is_mcp_tool`), computed from the payload hookwire built (tools in the tool's names).
   */
  readonly payloadFields?: (
    payload: Readonly<Record<string, unknown>>,
  ) => Readonly<Record<string, unknown>>;
}

/** The Claude-shaped profiles, by dialect name. */
export const CLAUDE_PROFILES = {
  /** Factory Droid: `.factory/hooks.json` (events at its root), else `hooks` in `settings.json`. */
  factory: {
    title: 'Factory Droid',
    sources: [
      { layer: 'user', under: 'home', path: ['.factory', 'hooks.json'], eventsAtRoot: true },
      { layer: 'user', under: 'home', path: ['.factory', 'settings.json'] },
      { layer: 'project', under: 'project', path: ['.factory', 'hooks.json'], eventsAtRoot: true },
      { layer: 'project', under: 'project', path: ['.factory', 'settings.json'] },
    ],
    projectDirVariable: 'FACTORY_PROJECT_DIR',
    tools: {
      shell: { ...CLAUDE_TOOLS.shell, name: 'Execute' },
      write_file: { ...CLAUDE_TOOLS.write_file, name: 'Create' },
      edit_file: { ...CLAUDE_TOOLS.edit_file, name: 'Edit' },
    },
    toolsWithoutCounterpart: ['ApplyPatch', 'WebSearch', 'FetchUrl', 'TodoWrite'],
    timeoutUnit: 'seconds',
    eventAliases: {},
  },
  /** Augment (Auggie): `.augment/settings.json`, `PromptSubmit`, timeouts in ms, `mcp:*`. */
  augment: {
    title: 'Augment',
    sources: [
      { layer: 'user', under: 'home', path: ['.augment', 'settings.json'] },
      { layer: 'project', under: 'project', path: ['.augment', 'settings.json'] },
      { layer: 'local', under: 'project', path: ['.augment', 'settings.local.json'] },
    ],
    tools: {
      shell: {
        name: 'launch-process',
        fields: {},
        foreignOnly: ['wait', 'max_wait_seconds', 'cwd'],
      },
      read_file: {
        name: 'view',
        fields: {},
        foreignOnly: ['type', 'view_range', 'search_query_regex'],
      },
      write_file: {
        name: 'save-file',
        fields: { content: { name: 'file_content' } },
        foreignOnly: ['instructions_reminder', 'add_last_line_newline'],
      },
      edit_file: {
        name: 'str-replace-editor',
        fields: { old_string: { name: 'old_str_1' }, new_string: { name: 'new_str_1' } },
        foreignOnly: [
          'command',
          'instruction_reminder',
          'old_str_start_line_number_1',
          'old_str_end_line_number_1',
        ],
      },
    },
    toolsWithoutCounterpart: ['remove-files', 'web-fetch', 'web-search', 'codebase-retrieval'],
    timeoutUnit: 'milliseconds',
    eventAliases: { PromptSubmit: 'UserPromptSubmit' },
    mcpMatcherPrefix: 'mcp:',
    payloadFields: (payload) => ({
      conversation_id: payload['session_id'],
      workspace_roots: [payload['cwd']],
      ...(typeof payload['tool_name'] === 'string'
        ? { is_mcp_tool: payload['tool_name'].startsWith('mcp__') }
        : {}),
    }),
  },
  /** Tencent CodeBuddy: Claude Code's files under `.codebuddy/`, `$CODEBUDDY_PROJECT_DIR`. */
  codebuddy: {
    title: 'CodeBuddy',
    sources: [
      { layer: 'user', under: 'home', path: ['.codebuddy', 'settings.json'] },
      { layer: 'project', under: 'project', path: ['.codebuddy', 'settings.json'] },
      { layer: 'local', under: 'project', path: ['.codebuddy', 'settings.local.json'] },
    ],
    projectDirVariable: 'CODEBUDDY_PROJECT_DIR',
    tools: {},
    toolsWithoutCounterpart: ['MultiEdit', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite'],
    timeoutUnit: 'seconds',
    eventAliases: {},
  },
  /** Qwen Code: `.qwen/settings.json`, its own tool ids, timeouts in milliseconds. */
  qwen: {
    title: 'Qwen Code',
    sources: [
      { layer: 'user', under: 'home', path: ['.qwen', 'settings.json'] },
      { layer: 'project', under: 'project', path: ['.qwen', 'settings.json'] },
    ],
    tools: {
      shell: { name: 'run_shell_command', fields: {}, foreignOnly: ['directory', 'is_background'] },
      read_file: {
        name: 'read_file',
        fields: { path: { name: 'absolute_path', out: absolutePath } },
        foreignOnly: ['offset', 'limit'],
      },
      write_file: {
        name: 'write_file',
        fields: { path: { name: 'file_path', out: absolutePath } },
        foreignOnly: [],
      },
      edit_file: {
        name: 'edit',
        fields: { path: { name: 'file_path', out: absolutePath } },
        foreignOnly: ['replace_all'],
      },
      glob: { name: 'glob', fields: {}, foreignOnly: ['path'] },
      grep: { name: 'grep_search', fields: {}, foreignOnly: ['glob', 'limit'] },
      agent: {
        name: 'task',
        fields: { agent_type: { name: 'subagent_type' } },
        foreignOnly: [],
      },
    },
    toolsWithoutCounterpart: [
      'list_directory',
      'read_many_files',
      'web_fetch',
      'web_search',
      'save_memory',
      'todo_write',
    ],
    timeoutUnit: 'milliseconds',
    eventAliases: {},
  },
} as const satisfies Readonly<Record<string, ClaudeProfile>>;

/** The names of the Claude-shaped profiles. */
export type ClaudeProfileName = keyof typeof CLAUDE_PROFILES;

/** The profile's tool table: Claude Code's, with the profile's own names and arguments over it. */
export function profileToolTable(profile: ClaudeProfile): Readonly<Record<string, ToolMapping>> {
  return { ...CLAUDE_TOOLS, ...profile.tools };
}
