/**
 * The main agent's system prompt in `hookwire run`, in this order (decision 0027):
 *
 * 1. the base prompt: `--system-prompt TEXT|@FILE`, else the `systemPrompt` setting, else
 *    `defaultSystemPrompt` (what the agent is, where it runs, its tools);
 * 2. `--append-system-prompt TEXT`;
 * 3. the trusted instruction files (`project-instructions.ts`).
 *
 * The request carries it as `settings.systemInstruction`, so BeforeModel hooks see it and may
 * change it; each provider adapter sends it its own way (a leading `system` message for Chat
 * Completions, `instructions` for Responses, `system` for Anthropic, `systemInstruction` for
 * Gemini).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError } from './cli-error.ts';
import { instructionsSection, type InstructionFile } from './project-instructions.ts';

/** The most characters `--system-prompt @FILE` may hold (as the `systemPrompt` setting). */
export const SYSTEM_PROMPT_LIMIT_CHARACTERS = 65536;

/** What the default prompt says about where the agent runs. */
export interface AgentEnvironment {
  readonly cwd: string;
  /** `process.platform` and `process.arch`, e.g. `linux`, `x64`. */
  readonly platform: string;
  readonly arch: string;
  /** Today, as `YYYY-MM-DD` (local time). */
  readonly date: string;
  /** The names of the tools offered, in order. */
  readonly tools: readonly string[];
}

/** Today's date as `YYYY-MM-DD`, local time. */
export function localDate(now: Date = new Date()): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The default base prompt: what the agent is, where it runs, its tools. */
export function defaultSystemPrompt(environment: AgentEnvironment): string {
  const tools = environment.tools.length === 0 ? '(none)' : environment.tools.join(', ');
  return [
    "You are a coding agent run by hookwire, working in the user's project through the tools you are given.",
    'Look before you change things, make the smallest change that does the job, and finish with a short report of what you did and what is left.',
    'Hooks guard your work: a tool call may be denied, or you may be asked to keep working; the reason comes back as the tool result or as the next message. Take it into account instead of retrying the same call.',
    '',
    '# Environment',
    `- Working directory: ${environment.cwd} (relative paths are resolved there)`,
    `- Platform: ${environment.platform} (${environment.arch})`,
    `- Date: ${environment.date}`,
    `- Tools: ${tools}`,
  ].join('\n');
}

/**
 * The text of `--system-prompt`: the argument itself, or with a leading `@` the file it names
 * (relative to `invocationDir`). Throws a `CliError` naming the file when it cannot be read, and
 * for an empty or oversized prompt.
 */
export async function readSystemPromptOption(
  value: string,
  invocationDir: string,
  flag = '--system-prompt',
): Promise<string> {
  let text = value;
  if (value.startsWith('@')) {
    const file = resolve(invocationDir, value.slice(1));
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(
        `${flag} ${value}: the file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); give a readable file after @, or the prompt text itself`,
        { cause: error },
      );
    }
  }
  if (text.trim() === '')
    throw new CliError(`${flag} is empty: give the prompt text, or @FILE naming a file holding it`);
  if (text.length > SYSTEM_PROMPT_LIMIT_CHARACTERS)
    throw new CliError(
      `${flag}: the prompt is ${text.length} characters, more than the limit of ${SYSTEM_PROMPT_LIMIT_CHARACTERS}; shorten it`,
    );
  return text;
}

/** The parts of the system prompt (see the module comment). */
export interface SystemPromptParts {
  /** `--system-prompt` or the `systemPrompt` setting; absent: the default prompt. */
  readonly base?: string;
  readonly environment: AgentEnvironment;
  readonly append?: string;
  readonly instructions: readonly InstructionFile[];
}

/** Composes the system prompt from its parts, separated by blank lines. */
export function composeSystemPrompt(parts: SystemPromptParts): string {
  const sections = [parts.base ?? defaultSystemPrompt(parts.environment)];
  if (parts.append !== undefined && parts.append.trim() !== '') sections.push(parts.append);
  const instructions = instructionsSection(parts.instructions);
  if (instructions !== undefined) sections.push(instructions);
  return sections.map((section) => section.trimEnd()).join('\n\n');
}
