/**
 * Claude Code's tool names and arguments (`Bash`, `Read`, `Write`, `Edit`, `Glob`, `Grep`,
 * `Agent`): the table the Claude dialect, Codex, Kimi Code, the Claude-shaped profiles (which
 * rename some tools) and the Claude Agent SDK bridge all read, through `vocabulary.ts`.
 */
import { filePath, msToSeconds, secondsToMs, type ToolMapping } from '../tool-mapping.ts';

/** Claude Code's names (Codex and Kimi Code use the same). hookwire name → mapping. */
export const CLAUDE_TOOLS = {
  shell: {
    name: 'Bash',
    // Claude Code's Bash takes its timeout in milliseconds; hookwire's shell in seconds.
    fields: { timeout: { name: 'timeout', out: secondsToMs, back: msToSeconds } },
    foreignOnly: ['run_in_background', 'dangerouslyDisableSandbox'],
  },
  read_file: { name: 'Read', fields: filePath, foreignOnly: ['offset', 'limit', 'pages'] },
  write_file: { name: 'Write', fields: filePath, foreignOnly: [] },
  edit_file: { name: 'Edit', fields: filePath, foreignOnly: ['replace_all'] },
  glob: { name: 'Glob', fields: {}, foreignOnly: ['path'] },
  // The subagent tool: `Agent` in today's Claude Code, `Task` in the hooks written before.
  agent: {
    name: 'Agent',
    aliases: ['Task'],
    fields: { agent_type: { name: 'subagent_type' } },
    foreignOnly: ['model', 'run_in_background'],
  },
  grep: {
    name: 'Grep',
    fields: {},
    foreignOnly: [
      'glob',
      'type',
      'output_mode',
      '-i',
      '-n',
      '-A',
      '-B',
      '-C',
      'context',
      'head_limit',
      'offset',
      'multiline',
    ],
  },
} satisfies Readonly<Record<string, ToolMapping>>;

/** Claude Code's tools hookwire has no counterpart of. */
export const CLAUDE_TOOLS_WITHOUT_COUNTERPART: readonly string[] = [
  'MultiEdit',
  'LS',
  'WebFetch',
  'WebSearch',
  'NotebookEdit',
  'TodoWrite',
];
