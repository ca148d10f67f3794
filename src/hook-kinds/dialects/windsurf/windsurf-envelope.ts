/**
 * Windsurf's Cascade hooks: every payload is `{ agent_action_name, trajectory_id, execution_id,
 * timestamp, tool_info }`, `tool_info` holding the action's fields (`command_line` and `cwd`
 * for commands, `file_path` and `edits` for writes, `file_path` for reads, the MCP server, tool
 * and arguments, `user_prompt`, `response`). A Windsurf hook answers only by its exit code
 * (2 blocks); what it prints is shown to the user, never read as an answer.
 */
import { isAbsolute, resolve } from 'node:path';
import type { HookEventName } from '../../../events/index.ts';
import type { DialectEnvelope, DialectFields } from '../dialect-contract.ts';
import { mcpParts, objectField, resultText } from '../envelope-fields.ts';

function toolInfo(name: string, fields: DialectFields): DialectFields {
  const input = objectField(fields['tool_input']) ?? {};
  const cwd = typeof fields['cwd'] === 'string' ? fields['cwd'] : '.';
  const path = input['path'];
  const file = typeof path === 'string' ? (isAbsolute(path) ? path : resolve(cwd, path)) : '';
  switch (name) {
    case 'pre_run_command':
    case 'post_run_command':
      return { command_line: input['command'], cwd };
    case 'pre_read_code':
    case 'post_read_code':
      return { file_path: file };
    case 'pre_write_code':
    case 'post_write_code':
      return {
        file_path: file,
        edits:
          typeof input['old_string'] === 'string'
            ? [{ old_string: input['old_string'], new_string: input['new_string'] ?? '' }]
            : [{ old_string: '', new_string: input['content'] ?? '' }],
      };
    case 'pre_mcp_tool_use':
    case 'post_mcp_tool_use': {
      const { server, tool } = mcpParts(
        typeof fields['tool_name'] === 'string' ? fields['tool_name'] : '',
      );
      return {
        mcp_server_name: server,
        mcp_tool_name: tool,
        mcp_tool_arguments: input,
        ...(name === 'post_mcp_tool_use'
          ? { mcp_result: resultText(fields['tool_response']) }
          : {}),
      };
    }
    case 'pre_user_prompt':
      return { user_prompt: fields['prompt'] };
    case 'post_cascade_response':
      return { response: fields['prompt_response'] };
    default:
      return {};
  }
}

export const windsurfEnvelope: DialectEnvelope = {
  payload: (name: string, _event: HookEventName, fields: DialectFields) => ({
    agent_action_name: name,
    trajectory_id: fields['session_id'],
    execution_id:
      fields['tool_call_id'] ?? `${String(fields['session_id'])}:${String(fields['timestamp'])}`,
    timestamp: fields['timestamp'],
    tool_info: toolInfo(name, fields),
  }),
  // Windsurf reads no answer from stdout: only the exit code counts.
  answer: () => ({}),
};
