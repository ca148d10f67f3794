/**
 * A tool the loop can run: its declaration (what the model sees) and its implementation.
 */
import type { ToolDeclaration } from '../content/index.ts';
import type { McpContext } from '../events/index.ts';

/** What a running tool gets besides its arguments. */
export interface ToolExecutionContext {
  /** Fires when the run is cancelled; the tool must stop (and kill what it spawned). */
  readonly signal: AbortSignal;
  /** The project directory: relative paths resolve against it. */
  readonly cwd: string;
  readonly toolCallId: string;
}

/**
 * A tool implementation. `execute` receives arguments already validated against
 * `declaration.parameters` and returns any JSON-serialisable result. Throwing (or rejecting) marks
 * the call as failed: the error's message goes to the model as the tool's error; it never crashes
 * the run.
 */
export interface Tool {
  readonly declaration: ToolDeclaration;
  /**
   * For a tool an MCP server provides: the server and the tool's name on it. The loop passes it
   * to the tool events (`PreToolUse`, `PermissionRequest`, `PostToolUse`, `PostToolUseFailure`)
   * as their `mcp_context`. Absent for every other tool.
   */
  readonly mcpContext?: McpContext;
  execute(args: unknown, context: ToolExecutionContext): Promise<unknown>;
}
