/**
 * Cursor's tool names and arguments, as its generic `preToolUse` / `postToolUse` hooks see them
 * (`tool_name`, `tool_input`). Its specific events (`beforeShellExecution`, `beforeReadFile`, …)
 * carry their own fields instead (see `cursor-envelope.ts`).
 */
import { FILE_PATH, type ToolTable } from '../tool-mapping.ts';

export const CURSOR_TOOLS: ToolTable = {
  shell: { name: 'Shell', fields: {}, foreignOnly: ['cwd', 'is_background'] },
  read_file: { name: 'Read', fields: FILE_PATH, foreignOnly: ['offset', 'limit'] },
  write_file: { name: 'Write', fields: FILE_PATH, foreignOnly: [] },
  edit_file: { name: 'Edit', fields: FILE_PATH, foreignOnly: ['replace_all'] },
  glob: { name: 'Glob', fields: {}, foreignOnly: ['path'] },
  grep: { name: 'Grep', fields: {}, foreignOnly: ['glob', 'type', 'output_mode', '-i'] },
  agent: {
    name: 'Task',
    fields: { agent_type: { name: 'subagent_type' } },
    foreignOnly: ['model'],
  },
};

/** Cursor tools hookwire has no counterpart of. */
export const CURSOR_TOOLS_WITHOUT_COUNTERPART: readonly string[] = [
  'Delete',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
];
