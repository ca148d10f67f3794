/**
 * Windsurf (Cascade) has no tool names in its hooks: each event is one kind of action
 * (`pre_run_command`, `pre_write_code`, …) and its `tool_info` carries that action's fields
 * (see `windsurf-envelope.ts`). The table names hookwire's tools by the action they are, for
 * listings and `hooks import`.
 */
import type { ToolTable } from '../tool-mapping.ts';

export const WINDSURF_TOOLS: ToolTable = {
  shell: { name: 'run_command', fields: {}, foreignOnly: [] },
  read_file: { name: 'read_code', fields: {}, foreignOnly: [] },
  write_file: { name: 'write_code', fields: {}, foreignOnly: [] },
  edit_file: { name: 'write_code', fields: {}, foreignOnly: [] },
};
