/**
 * Agent types: what a subagent of the `agent` tool is (its system prompt, its tools, its model).
 *
 * They come from the settings (`"agents": {"NAME": {"description", "prompt", "tools", "model"}}`)
 * and from Markdown files `.hookwire/agents/NAME.md` in the layout Claude Code uses in
 * `.claude/agents/`: a front matter block between `---` lines, then the system prompt.
 *
 * ```markdown
 * ---
 * name: explorer
 * description: Reads the code base and reports what it finds
 * tools: read_file, grep, glob
 * model: inherit
 * ---
 * You explore the repository and answer with file paths and line numbers.
 * ```
 *
 * The front matter is the simple YAML subset these files use: one `key: value` per line (a value
 * may be quoted), and `tools` as a comma-separated string, a flow list `[a, b]` or a block list
 * of `- a` lines; `#` comment lines and blank lines are ignored. Anything else is an error naming
 * the file and line. Keys besides `name`, `description`, `tools` and `model` are kept out (Claude
 * Code's `color`, `permissionMode`, … do not apply) and reported once as ignored.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { HookwireError, type LanguageModel } from '../content/index.ts';

/** The agent type a call gets when it names none: the parent's tools, a generic prompt. */
export const GENERAL_PURPOSE_AGENT = 'general-purpose';

/** An agent type as written (in settings or a file), its model not yet resolved. */
export interface AgentTypeDefinition {
  readonly name: string;
  readonly description: string;
  /** The subagent's system instruction. */
  readonly prompt: string;
  /**
   * The tools it may call: names of the parent's tools, or patterns (see `toolSelector`);
   * absent: all of them, MCP tools included.
   */
  readonly tools?: readonly string[];
  /** A model spec (`provider:model`), or `inherit`/absent for the parent's model. */
  readonly model?: string;
  /** Where it was defined: a file path, or `settings` with the file. */
  readonly source: string;
}

/** An agent type the loop runs: its model resolved (`undefined`: the parent's). */
export interface AgentType {
  readonly name: string;
  readonly description: string;
  readonly prompt: string;
  /** The tools it may call, as names or patterns (see `toolSelector`); absent: all of them. */
  readonly tools?: readonly string[];
  readonly model?: LanguageModel;
}

/** A malformed agent file: the file, the line and the fix are in the message. */
export class AgentTypeError extends HookwireError {
  constructor(message: string) {
    super('agent_type_invalid', message);
    this.name = 'AgentTypeError';
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const KNOWN_KEYS = new Set(['name', 'description', 'tools', 'model']);

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2) {
    const first = trimmed[0];
    if ((first === '"' || first === "'") && trimmed.endsWith(first)) {
      const inner = trimmed.slice(1, -1);
      return first === '"'
        ? inner.replace(/\\"/g, '"').replace(/\\\\/g, '\\')
        : inner.replace(/''/g, "'");
    }
  }
  return trimmed;
}

function listOf(value: string): string[] {
  const trimmed = value.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return inner
    .split(',')
    .map(unquote)
    .filter((entry) => entry !== '');
}

/** What parsing an agent file found besides the definition: keys it ignored. */
export interface ParsedAgentFile {
  readonly definition: AgentTypeDefinition;
  readonly ignoredKeys: readonly string[];
}

/**
 * Parses one agent file (see the module comment). The name is the front matter's `name`, else
 * the file name without `.md`; the description is required; the body (trimmed) is the prompt
 * and must not be empty. Throws `AgentTypeError`.
 */
export function parseAgentFile(text: string, file: string): ParsedAgentFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const at = (line: number, problem: string, fix: string): AgentTypeError =>
    new AgentTypeError(`${file}:${line}: ${problem}; fix: ${fix}`);
  if (lines[0]?.trim() !== '---')
    throw at(
      1,
      'an agent file starts with a front matter block (a line "---")',
      'begin the file with ---, then name, description (and tools, model), then --- and the system prompt',
    );
  const fields = new Map<string, string | string[]>();
  let end = -1;
  let listKey: string | undefined;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === '---') {
      end = index;
      break;
    }
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item !== null && listKey !== undefined) {
      const list = fields.get(listKey);
      if (Array.isArray(list)) list.push(unquote(item[1] as string));
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*:(.*)$/.exec(line);
    if (pair === null)
      throw at(
        index + 1,
        `cannot read ${JSON.stringify(line.trim())}`,
        'write one "key: value" per line',
      );
    const key = pair[1] as string;
    const value = (pair[2] as string).trim();
    if (fields.has(key)) throw at(index + 1, `"${key}" is given twice`, 'keep one of them');
    if (value === '' && key === 'tools') {
      fields.set(key, []);
      listKey = key;
      continue;
    }
    listKey = undefined;
    fields.set(key, key === 'tools' ? listOf(value) : unquote(value));
  }
  if (end < 0)
    throw at(lines.length, 'the front matter block is not closed', 'end it with a line "---"');
  const text_ = (key: string): string | undefined => {
    const value = fields.get(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const name = text_('name') ?? basename(file).replace(/\.md$/i, '');
  if (!NAME.test(name))
    throw at(
      2,
      `the agent name ${JSON.stringify(name)} is not valid`,
      'use letters, digits, ".", "_" and "-"',
    );
  const description = text_('description');
  if (description === undefined)
    throw at(
      2,
      'the front matter has no description',
      'add "description: what this agent does and when to use it"',
    );
  const prompt = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  if (prompt === '')
    throw at(
      end + 2,
      'the system prompt (after the front matter) is empty',
      'write the instructions of this agent after the closing ---',
    );
  const tools = fields.get('tools');
  const model = text_('model');
  return {
    definition: {
      name,
      description,
      prompt,
      ...(Array.isArray(tools) ? { tools } : {}),
      ...(model === undefined ? {} : { model }),
      source: file,
    },
    ignoredKeys: [...fields.keys()].filter((key) => !KNOWN_KEYS.has(key)),
  };
}

/** The agent files of a directory (`*.md`, in name order); a missing directory has none. */
export async function loadAgentFiles(directory: string): Promise<ParsedAgentFile[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed: ParsedAgentFile[] = [];
  for (const name of names.filter((entry) => entry.toLowerCase().endsWith('.md')).sort()) {
    const file = join(directory, name);
    parsed.push(parseAgentFile(await readFile(file, 'utf8'), file));
  }
  return parsed;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The test an agent type's `tools` list stands for. Each entry is a tool name (`shell`,
 * `mcp__github__create_issue`), a pattern where `*` stands for any run of characters
 * (`mcp__github__*`, `mcp__*` for every MCP tool), or `mcp__SERVER` alone for every tool of that
 * server — the forms Claude Code accepts in an agent's `tools` and in permission rules. Names
 * are compared exactly (case-sensitive); entries that match no tool select nothing.
 */
export function toolSelector(entries: readonly string[]): (toolName: string) => boolean {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    if (trimmed.includes('*'))
      patterns.push(new RegExp(`^${trimmed.split('*').map(escapeRegExp).join('.*')}$`));
    else if (/^mcp__./.test(trimmed) && !trimmed.slice(5).includes('__'))
      patterns.push(new RegExp(`^${escapeRegExp(trimmed)}__`));
    else names.add(trimmed);
  }
  return (toolName) => names.has(toolName) || patterns.some((pattern) => pattern.test(toolName));
}

/** The system prompt of the `general-purpose` type. */
export const GENERAL_PURPOSE_PROMPT =
  'You are a subagent: another agent gave you the task below. Work on it with the tools you have, then answer with a complete, self-contained report of what you did and found; that answer is all the other agent sees.';

/**
 * The agent types by name: `general-purpose` (unless defined), then `definitions` in order, a
 * later definition of a name replacing an earlier one.
 */
export function agentTypesByName(
  definitions: readonly AgentType[],
): ReadonlyMap<string, AgentType> {
  const types = new Map<string, AgentType>([
    [
      GENERAL_PURPOSE_AGENT,
      {
        name: GENERAL_PURPOSE_AGENT,
        description: 'A general agent with the same tools, for a self-contained task.',
        prompt: GENERAL_PURPOSE_PROMPT,
      },
    ],
  ]);
  for (const type of definitions) types.set(type.name, type);
  return types;
}
