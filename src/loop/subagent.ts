/**
 * Subagents: the built-in `agent` tool (`{description, prompt, agent_type?}`) runs a child loop
 * with its own history, the tool set of its agent type and its type's system prompt, and returns
 * the child's final answer as the tool's result.
 *
 * - **Same hooks.** The child fires its events through the parent's hooks (one `HookStack`), each
 *   with the child's identity on the context (`HookContext.agent`; command hooks read
 *   `agent_id`/`agent_type` in the payload), and passes the parent's permission rules; a
 *   PreToolUse denial of a child's call is the child's tool error, as it would be the parent's.
 *   The child fires no UserPromptSubmit, Stop, StopFailure or Interrupt of its own: SubagentStart
 *   before it runs (context added to its prompt; `stop` stops the parent run), SubagentStop when
 *   it answers without tool calls (a block continues it with the reason as its next message, at
 *   most `stopContinuationsPerTurn` times, as Stop does for a turn; `stop` ends it with its
 *   answer and stops the parent run). Its failure is the `agent` call's error.
 * - **One budget.** Every model call of a child takes from the parent run's `maxModelCalls`.
 * - **Concurrency.** Several `agent` calls of one step run concurrently, like any tool calls.
 * - **Depth.** A child at the nesting limit (`maxDepth`, default 1) has no `agent` tool.
 * - **Cancellation.** The child's signal follows the parent's: cancelling the run cancels every
 *   child, its model call, tools and hooks.
 * - **Transcripts.** Each child writes its own transcript, `<parent transcript>.agents/<agent
 *   id>.jsonl` (the parent's name without `.jsonl`), and the parent's records `subagent-start`
 *   (with that path) and `subagent-end`.
 */
import { randomUUID } from '../content/random-id.ts';
import type { Tool } from './tool.ts';
import { ToolRegistry } from './tool-registry.ts';
import {
  agentTypesByName,
  GENERAL_PURPOSE_AGENT,
  toolSelector,
  type AgentType,
} from './agent-types.ts';
import { CancelledError } from './loop-error.ts';
import { RunState, type AgentConfig, type SessionState } from './run-state.ts';
import { TranscriptWriter, TRANSCRIPT_VERSION } from './transcript.ts';
import { runTurn } from './turn-runner.ts';
import { isoTime } from './timestamp.ts';

/** The name of the built-in subagent tool. */
export const AGENT_TOOL_NAME = 'agent';
/** Default nesting depth: a subagent has no `agent` tool. */
export const DEFAULT_MAX_AGENT_DEPTH = 1;

/** Options of `createAgent`'s `subagents`. */
export interface SubagentOptions {
  /** The agent types besides `general-purpose` (a type named so replaces it). */
  readonly types?: readonly AgentType[];
  /** How deep subagents may nest: 1 (default) gives subagents no `agent` tool. At least 1. */
  readonly maxDepth?: number;
}

/** The resolved subagent configuration of an agent. */
export interface SubagentConfig {
  readonly types: ReadonlyMap<string, AgentType>;
  readonly maxDepth: number;
  /** The tools of each type's children, built once per type and depth. */
  readonly registries: Map<string, ToolRegistry>;
}

const SUBAGENT_TOOL: unique symbol = Symbol('hookwire agent tool');

/** The `agent` tool: the loop runs it (`runSubagent`), never its `execute`. */
interface SubagentTool extends Tool {
  readonly [SUBAGENT_TOOL]: true;
}

/** True for the built-in `agent` tool, which the tool step runs as a child loop. */
export function isSubagentTool(tool: Tool | undefined): tool is SubagentTool {
  return tool !== undefined && (tool as Partial<SubagentTool>)[SUBAGENT_TOOL] === true;
}

/** The resolved configuration; throws `RangeError` for a depth below 1. */
export function subagentConfig(options: SubagentOptions): SubagentConfig {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_AGENT_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new RangeError(`subagents.maxDepth must be a positive integer, got ${maxDepth}`);
  return { types: agentTypesByName(options.types ?? []), maxDepth, registries: new Map() };
}

/** The `agent` tool's declaration, listing the agent types for the model. */
export function agentTool(types: ReadonlyMap<string, AgentType>): Tool {
  const names = [...types.keys()];
  const listing = [...types.values()]
    .map((type) => `- ${type.name}: ${type.description}`)
    .join('\n');
  const tool: SubagentTool = {
    [SUBAGENT_TOOL]: true,
    declaration: {
      name: AGENT_TOOL_NAME,
      description: `Runs a subagent on a self-contained task: it works with its own tools and context and answers with a report, which is this tool's result. Give it everything it needs in the prompt; it does not see this conversation. Several agent calls in one answer run concurrently. Agent types:\n${listing}`,
      parameters: {
        type: 'object',
        properties: {
          description: { type: 'string', description: 'A short (3-5 word) name for the task.' },
          prompt: { type: 'string', description: 'The task, with all the context it needs.' },
          agent_type: {
            type: 'string',
            enum: names,
            description: `The agent type (default ${GENERAL_PURPOSE_AGENT}).`,
          },
        },
        required: ['description', 'prompt'],
        additionalProperties: false,
      },
    },
    execute: () =>
      Promise.reject(new Error('the agent tool runs inside the agent loop, not on its own')),
  };
  return tool;
}

/** The parent's tools plus the `agent` tool. */
export function withAgentTool(
  tools: ToolRegistry | undefined,
  types: ReadonlyMap<string, AgentType>,
): ToolRegistry {
  const registry =
    tools?.pick((tool) => tool.declaration.name !== AGENT_TOOL_NAME) ?? new ToolRegistry();
  return registry.register(agentTool(types));
}

/** The tools a child of `type` gets at `depth` (built once per type and depth). */
function childTools(
  config: AgentConfig,
  subagents: SubagentConfig,
  type: AgentType,
  depth: number,
): ToolRegistry {
  const key = `${depth}\u0000${type.name}`;
  const known = subagents.registries.get(key);
  if (known !== undefined) return known;
  const parent = config.tools;
  const allowed = type.tools === undefined ? undefined : toolSelector(type.tools);
  const keep = (tool: Tool): boolean =>
    (allowed === undefined || allowed(tool.declaration.name)) &&
    (!isSubagentTool(tool) || depth < subagents.maxDepth);
  const registry = parent?.pick(keep) ?? new ToolRegistry();
  subagents.registries.set(key, registry);
  return registry;
}

/** What a subagent call came to: its answer, or a stop of the parent run with it. */
export interface SubagentOutcome {
  readonly result: string;
  /** Set when a SubagentStart or SubagentStop hook stopped: the parent run stops. */
  readonly stop?: string;
}

interface AgentArguments {
  readonly description: string;
  readonly prompt: string;
  readonly agent_type?: string;
}

/** The transcript of a child: beside the parent's, `<parent>.agents/<agentId>.jsonl`. */
export function childTranscriptPath(parentTranscript: string, agentId: string): string {
  return `${parentTranscript.replace(/\.jsonl$/, '')}.agents/${agentId}.jsonl`;
}

/**
 * Runs the `agent` call `toolCallId` of `parent` as a child loop (see the module comment).
 * Resolves to the child's final answer; throws (the call's error) when the agent type is unknown
 * or the child failed, and `CancelledError` when the run was cancelled.
 */
export async function runSubagent(
  parent: RunState,
  toolCallId: string,
  args: unknown,
): Promise<SubagentOutcome> {
  const subagents = parent.config.subagents;
  if (subagents === undefined) throw new Error('subagents are not enabled for this agent');
  const { description, prompt, agent_type: requested } = args as AgentArguments;
  const typeName = requested ?? GENERAL_PURPOSE_AGENT;
  const type = subagents.types.get(typeName);
  if (type === undefined)
    throw new Error(
      `unknown agent type "${typeName}"; available: ${[...subagents.types.keys()].join(', ')}`,
    );
  const agentId = `agent-${randomUUID()}`;
  const transcriptPath = childTranscriptPath(parent.session.info.transcriptPath, agentId);

  const start = await parent.fire('subagentStart', () => ({
    agentId,
    agentType: type.name,
    prompt,
    description,
  }));
  if (start?.kind === 'stop')
    return { result: `the subagent did not run: ${start.reason}`, stop: start.reason };
  const context = start?.kind === 'continue' ? start.additionalContext : undefined;

  const depth = parent.config.depth + 1;
  const config: AgentConfig = {
    ...parent.config,
    model: type.model ?? parent.config.model,
    tools: childTools(parent.config, subagents, type, depth),
    settings: { ...parent.config.settings, systemInstruction: type.prompt },
    depth,
    tracer: undefined,
  };
  const transcript = await TranscriptWriter.open(transcriptPath, {
    recordPayloads: parent.config.recordPayloads,
  });
  const session: SessionState = {
    // Hooks see the session they belong to (the parent's id and transcript) and the agent.
    info: parent.session.info,
    history: [],
    transcript,
    lock: parent.session.lock,
    queue: [],
    turnCounter: 0,
    pendingContext: undefined,
    pendingReports: [],
    span: undefined,
  };
  const time = isoTime();
  transcript.append({
    type: 'session-start',
    version: TRANSCRIPT_VERSION,
    sessionId: agentId,
    cwd: parent.session.info.cwd,
    source: 'startup',
    time,
  });
  parent.record({
    type: 'subagent-start',
    turn: parent.currentTurn,
    toolCallId,
    agentId,
    agentType: type.name,
    description,
    transcriptPath,
    time,
  });
  parent.emit({
    type: 'subagent-start',
    toolCallId,
    agentId,
    agentType: type.name,
    transcriptPath,
  });
  const child = new RunState(config, session, parent.streaming, {
    parent,
    agent: { id: agentId, type: type.name },
    transcriptPath,
  });
  try {
    const end = await runTurn(child, context === undefined ? prompt : `${prompt}\n\n${context}`);
    parent.record({
      type: 'subagent-end',
      turn: parent.currentTurn,
      toolCallId,
      agentId,
      status: end.status,
      ...(end.reason === undefined ? {} : { reason: end.reason }),
      time: isoTime(),
    });
    parent.emit({
      type: 'subagent-end',
      toolCallId,
      agentId,
      status: end.status,
      result: child.lastAnswer,
    });
    if (end.status === 'cancelled') throw new CancelledError(parent.cancelReason());
    if (end.status === 'completed') return { result: child.lastAnswer };
    if (end.status === 'stopped' && end.endsRun)
      return { result: child.lastAnswer, stop: end.reason ?? 'a subagent hook stopped the run' };
    throw new Error(
      `the subagent ${type.name} (${agentId}) ended ${end.status}: ${end.reason ?? 'no reason given'}`,
    );
  } finally {
    transcript.append({ type: 'session-end', reason: 'subagent', time: isoTime() });
    await transcript.close();
    child.detach();
  }
}
