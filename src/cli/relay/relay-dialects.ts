/**
 * The calling tools a relay entry answers (decision 0035), each as a small table over the Claude
 * Code bridge (`adapters/claude-agent-sdk`): hookwire's hooks run once, through the lifecycle's
 * rules, on a Claude-shaped input, and the answer is written back in the calling tool's words.
 *
 * - `claude`: Claude Code's input and JSON answer as they are (the bridge speaks them).
 * - `gemini`: Gemini CLI's event names (`BeforeTool` ↔ `PreToolUse`, `AfterAgent` ↔ `Stop`, …),
 *   tool names and arguments (`run_shell_command` ↔ `Bash`, through hookwire's names and the
 *   dialect tables in `hook-kinds/dialects/vocabulary.ts`), and its answers (`decision: "deny"`
 *   with `reason`, `hookSpecificOutput.tool_input` merged over the arguments, an `AfterAgent`
 *   deny as the continuation).
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
} from '../../hook-kinds/dialects/vocabulary.ts';

/** What a relay entry prints and exits with. */
export interface RelayAnswer {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The tools `hookwire relay install --into` writes into, and whose payloads the relay answers. */
export const RELAY_TOOLS = ['claude', 'gemini'] as const;
export type RelayTool = (typeof RELAY_TOOLS)[number];

export function isRelayTool(value: string): value is RelayTool {
  return (RELAY_TOOLS as readonly string[]).includes(value);
}

type Fields = Readonly<Record<string, unknown>>;

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

/** The events of each tool the relay serves, by the tool's names (what install registers). */
export const RELAY_EVENTS: Readonly<Record<RelayTool, readonly string[]>> = {
  claude: [
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
  gemini: Object.keys(GEMINI_EVENTS),
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

/** A Gemini CLI payload as Claude Code's input (names through hookwire's). */
export function geminiToClaude(payload: Fields): Fields {
  const event = typeof payload['hook_event_name'] === 'string' ? payload['hook_event_name'] : '';
  const input: Record<string, unknown> = {
    ...payload,
    hook_event_name: claudeEventOf('gemini', event),
  };
  const toolName = payload['tool_name'];
  if (typeof toolName === 'string') {
    const hookwire = hookwireToolName('gemini', toolName);
    const args = hookwireToolInput('gemini', hookwire, payload['tool_input']).input;
    const claude = toClaudeToolName(hookwire);
    input['tool_name'] = claude;
    input['tool_input'] = toClaudeToolInput(claude, args);
    input['tool_use_id'] = typeof payload['tool_use_id'] === 'string' ? payload['tool_use_id'] : '';
  }
  if (event === 'AfterAgent') {
    input['last_assistant_message'] = payload['prompt_response'];
    input['stop_hook_active'] = payload['stop_hook_active'] === true;
  }
  return input;
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  if (specific['updatedInput'] !== undefined && geminiTool !== undefined) {
    const hookwire = hookwireToolName('gemini', geminiTool);
    const call = fromClaudeTool(toClaudeToolName(hookwire), specific['updatedInput']);
    out['tool_input'] = foreignToolInput('gemini', call.toolName, call.input);
  }
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

/** Everything the relay knows about one calling tool, as one object (no branching on its name). */
export interface RelayToolRules {
  /** How the tool calls itself in messages. */
  readonly title: string;
  /** The variable holding the project directory in its hooks' environment. */
  readonly projectVariable: string;
  /** Its settings folder, under the project or the home directory. */
  readonly settingsDir: string;
  /** Its deadline for the relay entry, in its unit: far beyond any hookwire hook's. */
  readonly entryTimeout: number;
  /** Its event names → Claude Code's, where they differ. */
  readonly events: Readonly<Record<string, string>>;
  /** Its payload as Claude Code's input. */
  toClaude(payload: Fields): Fields;
  /** Claude Code's answer (the bridge's) in its words; `payload` is the one it sent. */
  fromClaude(answer: Fields, payload: Fields): Fields;
}

export const RELAY_TOOL_RULES: Readonly<Record<RelayTool, RelayToolRules>> = {
  claude: {
    title: 'Claude Code',
    projectVariable: 'CLAUDE_PROJECT_DIR',
    settingsDir: '.claude',
    entryTimeout: 600,
    events: {},
    toClaude: (payload) => payload,
    fromClaude: (answer) => answer,
  },
  gemini: {
    title: 'Gemini CLI',
    projectVariable: 'GEMINI_PROJECT_DIR',
    settingsDir: '.gemini',
    entryTimeout: 600_000,
    events: GEMINI_EVENTS,
    toClaude: geminiToClaude,
    fromClaude: (answer, payload) =>
      claudeAnswerToGemini(
        typeof payload['hook_event_name'] === 'string' ? payload['hook_event_name'] : '',
        answer,
        geminiToolOf(payload),
      ),
  },
};
