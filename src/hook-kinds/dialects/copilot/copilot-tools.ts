/**
 * GitHub Copilot CLI's tool names and arguments (its hooks reference, "Tool names for hook
 * matching"): what a camelCase hook sees as `toolName` and, parsed, in `toolArgs`.
 */
import type { ToolTable } from '../tool-mapping.ts';

export const COPILOT_TOOLS: ToolTable = {
  // `powershell` is the same tool on Windows: a matcher naming it matches hookwire's shell too.
  shell: {
    name: 'bash',
    aliases: ['powershell'],
    fields: {},
    foreignOnly: ['mode', 'initial_wait'],
  },
  read_file: { name: 'view', fields: {}, foreignOnly: ['view_range'] },
  write_file: { name: 'create', fields: { content: { name: 'file_text' } }, foreignOnly: [] },
  // Copilot's edit tool takes str_replace_editor's arguments; older hooks match its old names.
  edit_file: {
    name: 'edit',
    aliases: ['str_replace_editor', 'apply_patch'],
    fields: { old_string: { name: 'old_str' }, new_string: { name: 'new_str' } },
    foreignOnly: [],
  },
  glob: { name: 'glob', fields: {}, foreignOnly: ['path'] },
  grep: { name: 'grep', fields: {}, foreignOnly: ['glob', 'output_mode', '-i', '-n'] },
  agent: { name: 'task', fields: {}, foreignOnly: ['model', 'mode'] },
};

/** Copilot CLI tools hookwire has no counterpart of. */
export const COPILOT_TOOLS_WITHOUT_COUNTERPART: readonly string[] = ['ask_user', 'web_fetch'];
