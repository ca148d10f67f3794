/**
 * The calling tools a relay entry answers (decision 0035), each as a small table over the Claude
 * Code bridge (`adapters/claude-agent-sdk`): hookwire's hooks run once, through the lifecycle's
 * rules, on a Claude-shaped input, and the answer is written back in the calling tool's words.
 * The other tools' names come from hookwire's dialect tables (`hook-kinds/dialects/…`: their
 * events, tool names and arguments), read in the other direction; no second copy of them.
 *
 * - `claude`, `codex`: Claude Code's input and JSON answer as they are (Codex's hooks are Claude
 *   Code's shape, `.codex/hooks.json`).
 * - `gemini`: Gemini CLI's event names (`BeforeTool` ↔ `PreToolUse`, `AfterAgent` ↔ `Stop`, …),
 *   tool names and arguments (`run_shell_command` ↔ `Bash`), and its answers (`decision: "deny"`
 *   with `reason`, `hookSpecificOutput.tool_input` merged over the arguments, an `AfterAgent`
 *   deny as the continuation).
 * - `copilot`: Copilot CLI's camelCase events (named by each entry: its payloads do not say
 *   theirs), `toolName`/`toolArgs`, and its answers (`permissionDecision`, `modifiedArgs`,
 *   `additionalContext`, `decision: "block"` at `agentStop`, `behavior`).
 * - `cursor`: Cursor's events (the generic `preToolUse`/`postToolUse` and the specific
 *   `beforeShellExecution`, …), and its answers (`permission`, `agent_message`,
 *   `updated_input`, `additional_context`, `followup_message`, `continue: false`).
 *
 * When the daemon cannot be reached, `unreachableAnswer` is what the calling tool is told: a
 * block with the reason (exit 2, stderr) for an event whose answer can deny an action, a pass
 * (exit 0) for every other one.
 */
import { fromClaudeTool, toClaudeToolInput, toClaudeToolName } from '../../claude-agent-sdk.ts';
import {
  foreignToolInput,
  foreignToolName,
  hookwireToolInput,
  hookwireToolName,
  type DialectName,
} from '../../hook-kinds/dialects/vocabulary.ts';
import { codexDialect } from '../../hook-kinds/dialects/codex/codex-dialect.ts';
import { copilotDialect } from '../../hook-kinds/dialects/copilot/copilot-dialect.ts';
import { cursorDialect } from '../../hook-kinds/dialects/cursor/cursor-dialect.ts';

/** What a relay entry prints and exits with. */
export interface RelayAnswer {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The tools `hookwire relay install --into` writes into, and whose payloads the relay answers. */
export const RELAY_TOOLS = ['claude', 'gemini', 'codex', 'copilot', 'cursor'] as const;
export type RelayTool = (typeof RELAY_TOOLS)[number];

export function isRelayTool(value: string): value is RelayTool {
  return (RELAY_TOOLS as readonly string[]).includes(value);
}

/**
 * What a relay entry names as its tool: `TOOL`, or `TOOL:EVENT` for a tool whose payloads do not
 * say which event they are for (Copilot CLI's), so each of its entries names its own.
 */
export interface RelayToolSpec {
  readonly tool: RelayTool;
  readonly event?: string;
}

export function parseToolSpec(spec: string): RelayToolSpec | undefined {
  const [tool = '', event] = spec.split(':', 2);
  if (!isRelayTool(tool)) return undefined;
  return event === undefined || event === '' ? { tool } : { tool, event };
}

export function formatToolSpec(spec: RelayToolSpec): string {
  return spec.event === undefined ? spec.tool : `${spec.tool}:${spec.event}`;
}

/** The event a payload is for: the entry's own (Copilot), else the payload's `hook_event_name`. */
export function eventOf(spec: RelayToolSpec, payload: Fields): string {
  if (spec.event !== undefined) return spec.event;
  const name = payload['hook_event_name'];
  return typeof name === 'string' ? name : '';
}

type Fields = Readonly<Record<string, unknown>>;

/** A tool's arguments as an object: Copilot CLI (and Cursor's MCP events) give a JSON string. */
function parsedArguments(value: unknown): Fields {
  let parsed = value;
  if (typeof value === 'string')
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = {};
    }
  return isRecord(parsed) ? parsed : {};
}

/** A tool call in a dialect's names, as Claude Code's (through hookwire's names). */
function claudeToolCall(
  dialect: DialectName,
  foreignName: string,
  foreignInput: unknown,
): { readonly tool_name: string; readonly tool_input: unknown } {
  const hookwire = hookwireToolName(dialect, foreignName);
  const args = hookwireToolInput(dialect, hookwire, foreignInput).input;
  const claude = toClaudeToolName(hookwire);
  return { tool_name: claude, tool_input: toClaudeToolInput(claude, args) };
}

/**
 * Claude Code's arguments for the dialect's tool `foreignName`, in the dialect's names, over the
 * call's own arguments `original` when given: fields hookwire has no name for (Cursor's `cwd`,
 * Copilot's `mode`) never reached the hook, so a rewrite keeps them.
 */
function foreignArguments(
  dialect: DialectName,
  foreignName: string,
  claudeInput: unknown,
  original?: unknown,
): unknown {
  const hookwire = hookwireToolName(dialect, foreignName);
  const call = fromClaudeTool(toClaudeToolName(hookwire), claudeInput);
  const written = foreignToolInput(dialect, call.toolName, call.input);
  return isRecord(original) && isRecord(written) ? { ...original, ...written } : written;
}

/** Gemini CLI event → Claude Code event. */
const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
};

/** Events whose answer can deny an action: these fail closed when the daemon is unreachable. */
const DENYING = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit']);

/** The Claude Code event a tool's event name stands for. */
export function claudeEventOf(tool: RelayTool, event: string): string {
  return RELAY_TOOL_RULES[tool].events[event] ?? event;
}

/** What the calling tool is told when hookwire cannot answer (see the module doc). */
export function unreachableAnswer(tool: RelayTool, event: string, why: string): RelayAnswer {
  if (!DENYING.has(claudeEventOf(tool, event))) return { exit: 0, stdout: '', stderr: '' };
  return {
    exit: 2,
    stdout: '',
    stderr: `hookwire relay: blocked because hookwire's hooks could not run (${why}); the action is denied rather than allowed unchecked\n`,
  };
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The parts of Claude Code's JSON answer (the bridge's) the other tools' answers are made of. */
interface ClaudeAnswer {
  /** `continue: false`: the agent stops (the reason). */
  readonly stop?: string;
  /** PreToolUse's `permissionDecision` and its reason; a block (`decision: "block"`) is a deny. */
  readonly permission?: string;
  readonly reason?: string;
  readonly updatedInput?: unknown;
  readonly context?: string;
  readonly updatedToolOutput?: unknown;
  /** PermissionRequest's `decision`. */
  readonly behavior?: { readonly behavior?: unknown; readonly message?: unknown };
}

function readClaudeAnswer(answer: Fields): ClaudeAnswer {
  const specific = isRecord(answer['hookSpecificOutput']) ? answer['hookSpecificOutput'] : {};
  const blocked = answer['decision'] === 'block';
  const permission = blocked ? 'deny' : text(specific['permissionDecision']);
  const reason = blocked ? text(answer['reason']) : text(specific['permissionDecisionReason']);
  const stop =
    answer['continue'] === false
      ? (text(answer['stopReason']) ?? 'stopped by hookwire')
      : undefined;
  const context = text(specific['additionalContext']);
  return {
    ...(stop === undefined ? {} : { stop }),
    ...(permission === undefined ? {} : { permission }),
    ...(reason === undefined ? {} : { reason }),
    ...(specific['updatedInput'] === undefined ? {} : { updatedInput: specific['updatedInput'] }),
    ...(context === undefined ? {} : { context }),
    ...(specific['updatedToolOutput'] === undefined
      ? {}
      : { updatedToolOutput: specific['updatedToolOutput'] }),
    ...(isRecord(specific['decision']) ? { behavior: specific['decision'] } : {}),
  };
}

/** A Gemini CLI payload as Claude Code's input (names through hookwire's). */
export function geminiToClaude(payload: Fields): Fields {
  const event = typeof payload['hook_event_name'] === 'string' ? payload['hook_event_name'] : '';
  const input: Record<string, unknown> = {
    ...payload,
    hook_event_name: claudeEventOf('gemini', event),
  };
  const toolName = payload['tool_name'];
  if (typeof toolName === 'string') {
    Object.assign(input, claudeToolCall('gemini', toolName, payload['tool_input']));
    input['tool_use_id'] = typeof payload['tool_use_id'] === 'string' ? payload['tool_use_id'] : '';
  }
  if (event === 'AfterAgent') {
    input['last_assistant_message'] = payload['prompt_response'];
    input['stop_hook_active'] = payload['stop_hook_active'] === true;
  }
  return input;
}

/** Claude Code's JSON answer (the bridge's) in Gemini CLI's words, for the Gemini event `event`. */
export function claudeAnswerToGemini(event: string, answer: Fields, geminiTool?: string): Fields {
  if (answer['continue'] === false)
    return { continue: false, stopReason: answer['stopReason'] ?? 'stopped by hookwire' };
  const specific = isRecord(answer['hookSpecificOutput']) ? answer['hookSpecificOutput'] : {};
  if (specific['permissionDecision'] === 'deny')
    return { decision: 'deny', reason: specific['permissionDecisionReason'] };
  if (answer['decision'] === 'block') return { decision: 'deny', reason: answer['reason'] };
  const out: Record<string, unknown> = { hookEventName: event };
  if (specific['updatedInput'] !== undefined && geminiTool !== undefined)
    out['tool_input'] = foreignArguments('gemini', geminiTool, specific['updatedInput']);
  if (typeof specific['additionalContext'] === 'string')
    out['additionalContext'] = specific['additionalContext'];
  return Object.keys(out).length === 1 ? {} : { hookSpecificOutput: out };
}

/** The tool name a Gemini payload names, in Gemini's words (for the answer's `tool_input`). */
export function geminiToolOf(payload: Fields): string | undefined {
  const name = payload['tool_name'];
  return typeof name === 'string'
    ? foreignToolName('gemini', hookwireToolName('gemini', name))
    : undefined;
}

/**
 * A GitHub Copilot CLI payload (camelCase event, named by the entry: its payloads do not say it)
 * as Claude Code's input: `sessionId`, `toolName`, `toolArgs` (a JSON string), `toolResult`,
 * `prompt` — the fields `copilot-envelope.ts` writes, read back.
 */
export function copilotToClaude(payload: Fields, event: string): Fields {
  const claudeEvent = claudeEventOf('copilot', event);
  const input: Record<string, unknown> = {
    session_id: text(payload['sessionId']) ?? '',
    cwd: payload['cwd'],
    hook_event_name: claudeEvent,
    transcript_path: payload['transcriptPath'],
  };
  const toolName = text(payload['toolName']);
  if (toolName !== undefined) {
    Object.assign(input, claudeToolCall('copilot', toolName, parsedArguments(payload['toolArgs'])));
    input['tool_use_id'] = text(payload['toolCallId']) ?? '';
  }
  if (payload['prompt'] !== undefined) input['prompt'] = payload['prompt'];
  const result = payload['toolResult'];
  if (result !== undefined)
    input['tool_response'] = isRecord(result) ? result['textResultForLlm'] : result;
  if (payload['error'] !== undefined) input['error'] = payload['error'];
  if (claudeEvent === 'Stop' || claudeEvent === 'SubagentStop') input['stop_hook_active'] = false;
  if (claudeEvent === 'SessionStart')
    input['source'] = payload['source'] === 'resume' ? 'resume' : 'startup';
  return input;
}

/** Claude Code's answer in Copilot CLI's words (`copilot-envelope.ts`'s answers, written). */
export function claudeAnswerToCopilot(event: string, answer: Fields, payload: Fields): Fields {
  const claudeEvent = claudeEventOf('copilot', event);
  const read = readClaudeAnswer(answer);
  const out: Record<string, unknown> = {};
  if (claudeEvent === 'PreToolUse') {
    const permission = read.stop === undefined ? read.permission : 'deny';
    if (permission !== undefined) out['permissionDecision'] = permission;
    const reason = read.stop ?? read.reason;
    if (reason !== undefined && permission !== 'allow') out['permissionDecisionReason'] = reason;
    const toolName = text(payload['toolName']);
    if (read.updatedInput !== undefined && permission !== 'deny' && toolName !== undefined)
      out['modifiedArgs'] = foreignArguments(
        'copilot',
        toolName,
        read.updatedInput,
        parsedArguments(payload['toolArgs']),
      );
  } else if (claudeEvent === 'PermissionRequest') {
    if (read.stop !== undefined)
      Object.assign(out, { behavior: 'deny', message: read.stop, interrupt: true });
    else if (read.behavior !== undefined) {
      out['behavior'] = read.behavior.behavior;
      if (read.behavior.message !== undefined) out['message'] = read.behavior.message;
    }
  } else if (read.permission === 'deny') {
    // A block at agentStop is the continuation; elsewhere the nearest Copilot has.
    out['decision'] = 'block';
    if (read.reason !== undefined) out['reason'] = read.reason;
  }
  if (read.updatedToolOutput !== undefined)
    out['modifiedResult'] = {
      resultType: 'success',
      textResultForLlm:
        typeof read.updatedToolOutput === 'string'
          ? read.updatedToolOutput
          : JSON.stringify(read.updatedToolOutput),
    };
  if (read.context !== undefined) out['additionalContext'] = read.context;
  return out;
}

/** The Claude Code tool call a Cursor payload is about (its specific events name their tool). */
function cursorToolCall(event: string, payload: Fields): Fields {
  const specific = cursorDialect.eventTools?.[event];
  if (specific === 'shell')
    return claudeToolCall('cursor', foreignToolName('cursor', 'shell'), {
      command: payload['command'],
    });
  if (specific === 'read_file')
    return claudeToolCall('cursor', foreignToolName('cursor', 'read_file'), {
      file_path: payload['file_path'],
    });
  if (specific === 'write_file|edit_file')
    return claudeToolCall('cursor', foreignToolName('cursor', 'edit_file'), {
      file_path: payload['file_path'],
    });
  const toolName = text(payload['tool_name']);
  if (toolName === undefined) return {};
  return claudeToolCall('cursor', toolName, parsedArguments(payload['tool_input']));
}

/**
 * A Cursor payload as Claude Code's input: `conversation_id`, `hook_event_name` (its generic
 * `preToolUse`/`postToolUse` with `tool_name`/`tool_input`, or a specific event such as
 * `beforeShellExecution` with `command`), `prompt`, `loop_count` — the fields
 * `cursor-envelope.ts` writes, read back.
 */
export function cursorToClaude(payload: Fields, event: string): Fields {
  const claudeEvent = claudeEventOf('cursor', event);
  const roots = Array.isArray(payload['workspace_roots']) ? payload['workspace_roots'] : [];
  const input: Record<string, unknown> = {
    session_id: text(payload['conversation_id']) ?? text(payload['session_id']) ?? '',
    cwd: payload['cwd'] ?? roots[0],
    hook_event_name: claudeEvent,
    transcript_path: payload['transcript_path'],
  };
  if (claudeEvent.includes('ToolUse')) {
    Object.assign(input, cursorToolCall(event, payload));
    input['tool_use_id'] = text(payload['tool_use_id']) ?? text(payload['generation_id']) ?? '';
    const output = payload['tool_output'] ?? payload['output'] ?? payload['result_json'];
    if (output !== undefined) input['tool_response'] = output;
    if (payload['error_message'] !== undefined) input['error'] = payload['error_message'];
  }
  if (payload['prompt'] !== undefined) input['prompt'] = payload['prompt'];
  if (claudeEvent === 'Stop' || claudeEvent === 'SubagentStop')
    input['stop_hook_active'] =
      typeof payload['loop_count'] === 'number' && payload['loop_count'] > 0;
  if (claudeEvent === 'PreCompact') input['trigger'] = payload['trigger'];
  return input;
}

/** Claude Code's answer in Cursor's words (`cursor-envelope.ts`'s answers, written). */
export function claudeAnswerToCursor(event: string, answer: Fields, payload: Fields): Fields {
  const claudeEvent = claudeEventOf('cursor', event);
  const read = readClaudeAnswer(answer);
  const out: Record<string, unknown> = {};
  if (claudeEvent === 'PreToolUse') {
    let permission = read.stop === undefined ? read.permission : 'deny';
    let reason = read.stop ?? read.reason;
    const toolName = text(payload['tool_name']);
    if (read.updatedInput !== undefined && permission !== 'deny') {
      if (event === 'preToolUse' && toolName !== undefined) {
        out['updated_input'] = foreignArguments(
          'cursor',
          toolName,
          read.updatedInput,
          parsedArguments(payload['tool_input']),
        );
        permission = 'allow';
      } else {
        // Cursor's specific events cannot run changed arguments: not running them is the safe side.
        permission = 'deny';
        reason = `hookwire rewrote this call to ${JSON.stringify(read.updatedInput)}, which Cursor's ${event} cannot run; use the preToolUse event`;
      }
    }
    if (permission !== undefined) out['permission'] = permission;
    if (reason !== undefined && permission !== 'allow') {
      out['user_message'] = reason;
      out['agent_message'] = reason;
    }
  } else if (claudeEvent === 'UserPromptSubmit') {
    if (read.stop !== undefined || read.permission === 'deny') {
      out['continue'] = false;
      out['user_message'] = read.stop ?? read.reason ?? 'blocked by hookwire';
    }
  } else if (claudeEvent === 'Stop' || claudeEvent === 'SubagentStop') {
    if (read.permission === 'deny' && read.reason !== undefined)
      out['followup_message'] = read.reason;
  }
  if (read.updatedToolOutput !== undefined) out['updated_mcp_tool_output'] = read.updatedToolOutput;
  if (read.context !== undefined) out['additional_context'] = read.context;
  return out;
}

/** Where a tool keeps its hooks, under the project or the home directory. */
export interface RelaySettingsFiles {
  readonly project: readonly string[];
  readonly user: readonly string[];
}

/** Everything the relay knows about one calling tool, as one object (no branching on its name). */
export interface RelayToolRules {
  /** How the tool calls itself in messages. */
  readonly title: string;
  /** The variable holding the project directory in its hooks' environment (else the cwd). */
  readonly projectVariable?: string;
  /** Its hooks file, per scope (path segments under the project or home directory). */
  readonly settingsFile: RelaySettingsFiles;
  /**
   * How its file lists hooks: `events` (an event → groups of `{matcher, hooks}`, Claude Code's
   * layout) or `flat` (`{ "version": 1, "hooks": { event: [hook, …] } }`, Copilot's and Cursor's).
   */
  readonly layout: 'events' | 'flat';
  /** Its relay entry for `event`, running `command` (its deadline far past any hookwire hook's). */
  entry(command: string, event: string): Fields;
  /** True when each entry must name its event (the tool's payloads do not say it). */
  readonly entryNamesEvent: boolean;
  /** Its event names → Claude Code's, where they differ. */
  readonly events: Readonly<Record<string, string>>;
  /** The events the relay serves (what install registers by default), by the tool's names. */
  readonly served: readonly string[];
  /** Its payload for `event` as Claude Code's input. */
  toClaude(payload: Fields, event: string): Fields;
  /** Claude Code's answer (the bridge's) in its words; `payload` is the one it sent. */
  fromClaude(answer: Fields, payload: Fields, event: string): Fields;
}

const claudeEntry = (seconds: number) => (command: string) => ({
  type: 'command',
  command,
  timeout: seconds,
});

export const RELAY_TOOL_RULES: Readonly<Record<RelayTool, RelayToolRules>> = {
  claude: {
    title: 'Claude Code',
    projectVariable: 'CLAUDE_PROJECT_DIR',
    settingsFile: { project: ['.claude', 'settings.json'], user: ['.claude', 'settings.json'] },
    layout: 'events',
    entry: claudeEntry(600),
    entryNamesEvent: false,
    events: {},
    served: [
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Stop',
      'SessionStart',
      'SessionEnd',
      'PreCompact',
      'Notification',
    ],
    toClaude: (payload) => payload,
    fromClaude: (answer) => answer,
  },
  gemini: {
    title: 'Gemini CLI',
    projectVariable: 'GEMINI_PROJECT_DIR',
    settingsFile: { project: ['.gemini', 'settings.json'], user: ['.gemini', 'settings.json'] },
    layout: 'events',
    entry: claudeEntry(600_000),
    entryNamesEvent: false,
    events: GEMINI_EVENTS,
    served: Object.keys(GEMINI_EVENTS),
    toClaude: geminiToClaude,
    fromClaude: (answer, payload, event) =>
      claudeAnswerToGemini(event, answer, geminiToolOf(payload)),
  },
  // Codex's hooks are Claude Code's shape: its events, payloads and answers (codex-dialect.ts).
  codex: {
    title: 'Codex',
    settingsFile: { project: ['.codex', 'hooks.json'], user: ['.codex', 'hooks.json'] },
    layout: 'events',
    entry: claudeEntry(600),
    entryNamesEvent: false,
    events: {},
    served: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'].filter(
      (event) => Object.hasOwn(codexDialect.events, event),
    ),
    toClaude: (payload) => payload,
    fromClaude: (answer) => answer,
  },
  copilot: {
    title: 'GitHub Copilot CLI',
    settingsFile: {
      project: ['.github', 'hooks', 'hookwire.json'],
      user: ['.copilot', 'hooks', 'hookwire.json'],
    },
    layout: 'flat',
    entry: (command) => ({ type: 'command', bash: command, timeoutSec: 600 }),
    entryNamesEvent: true,
    events: copilotDialect.events,
    served: [
      'preToolUse',
      'permissionRequest',
      'postToolUse',
      'postToolUseFailure',
      'userPromptSubmitted',
      'agentStop',
      'sessionStart',
      'sessionEnd',
    ],
    toClaude: copilotToClaude,
    fromClaude: (answer, payload, event) => claudeAnswerToCopilot(event, answer, payload),
  },
  cursor: {
    title: 'Cursor',
    projectVariable: 'CURSOR_PROJECT_DIR',
    settingsFile: { project: ['.cursor', 'hooks.json'], user: ['.cursor', 'hooks.json'] },
    layout: 'flat',
    entry: (command) => ({ command, timeout: 600 }),
    entryNamesEvent: false,
    events: cursorDialect.events,
    // The generic tool events see every tool (the specific ones, e.g. beforeShellExecution, are
    // answered too, for entries installed with --events).
    served: [
      'preToolUse',
      'postToolUse',
      'postToolUseFailure',
      'beforeSubmitPrompt',
      'stop',
      'sessionStart',
      'sessionEnd',
      'preCompact',
    ],
    toClaude: cursorToClaude,
    fromClaude: (answer, payload, event) => claudeAnswerToCursor(event, answer, payload),
  },
};

/** The events of each tool the relay serves, by the tool's names (what install registers). */
export const RELAY_EVENTS: Readonly<Record<RelayTool, readonly string[]>> = Object.fromEntries(
  RELAY_TOOLS.map((tool) => [tool, RELAY_TOOL_RULES[tool].served]),
) as Record<RelayTool, readonly string[]>;
