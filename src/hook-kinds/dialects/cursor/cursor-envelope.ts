/**
 * Cursor's hooks (`.cursor/hooks.json`): the payloads its reference gives (`conversation_id`,
 * `generation_id`, `workspace_roots`, `hook_event_name`, then the event's own fields:
 * `command` at `beforeShellExecution`, `file_path` and `content` at `beforeReadFile`, `edits`
 * at `afterFileEdit`, `loop_count` at `stop`, …), and its answers (`permission`,
 * `user_message`, `agent_message`, `updated_input`, `continue`, `followup_message`,
 * `additional_context`) read back; snake_case as in the current reference, camelCase as older
 * published hooks write them.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { HookEventName } from '../../../events/index.ts';
import type { DialectEnvelope, DialectFields, EnvelopeFacts } from '../dialect-contract.ts';
import {
  anyField,
  objectField,
  resultText,
  stringField,
  withSpecific,
} from '../envelope-fields.ts';

/** Cursor gives `beforeReadFile` the file's content; hookwire reads at most this much of it. */
const CONTENT_LIMIT = 1024 * 1024;

function absolute(fields: DialectFields, path: unknown): string {
  const cwd = typeof fields['cwd'] === 'string' ? fields['cwd'] : '.';
  return typeof path === 'string' ? (isAbsolute(path) ? path : resolve(cwd, path)) : '';
}

function fileContent(path: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length > CONTENT_LIMIT ? text.slice(0, CONTENT_LIMIT) : text;
  } catch {
    return ''; // a file that does not exist (yet) has no content to show
  }
}

/** The `edits` of `afterFileEdit`: the edit's strings, or a whole write as one edit. */
function edits(input: DialectFields): DialectFields[] {
  if (typeof input['old_string'] === 'string' || typeof input['new_string'] === 'string')
    return [{ old_string: input['old_string'] ?? '', new_string: input['new_string'] ?? '' }];
  return [{ old_string: '', new_string: input['content'] ?? '' }];
}

function payload(
  name: string,
  event: HookEventName,
  fields: DialectFields,
  facts: EnvelopeFacts,
): DialectFields {
  const input = objectField(fields['tool_input']) ?? {};
  const base = {
    conversation_id: fields['session_id'],
    generation_id: fields['tool_call_id'] ?? fields['session_id'],
    hook_event_name: name,
    workspace_roots: [fields['cwd']],
    transcript_path: fields['transcript_path'],
    cursor_version: 'hookwire',
  };
  const path = absolute(fields, input['file_path']);
  switch (name) {
    case 'beforeShellExecution':
      return { ...base, command: input['command'], cwd: fields['cwd'] };
    case 'afterShellExecution':
      return {
        ...base,
        command: input['command'],
        cwd: fields['cwd'],
        output: resultText(fields['tool_response']),
        duration: 0,
      };
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      return {
        ...base,
        tool_name: fields['tool_name'],
        tool_input: JSON.stringify(input),
        ...(name === 'afterMCPExecution'
          ? { result_json: resultText(fields['tool_response']), duration: 0 }
          : {}),
      };
    case 'beforeReadFile':
      return { ...base, file_path: path, content: fileContent(path), attachments: [] };
    case 'afterFileEdit':
      return { ...base, file_path: path, edits: edits(input) };
    case 'beforeSubmitPrompt':
      return { ...base, prompt: fields['prompt'], attachments: [] };
    case 'stop':
      return { ...base, status: 'completed', loop_count: facts.continuations ?? 0 };
    case 'sessionStart':
      return { ...base, session_id: fields['session_id'], is_background_agent: false };
    case 'sessionEnd':
      return { ...base, session_id: fields['session_id'], reason: fields['reason'] };
    case 'preCompact':
      return { ...base, trigger: fields['trigger'] };
    case 'subagentStart':
      return { ...base, subagent_type: fields['agent_type'], prompt: fields['prompt'] };
    case 'subagentStop':
      return {
        ...base,
        subagent_type: fields['agent_type'],
        status: 'completed',
        result: fields['result'],
        loop_count: facts.continuations ?? 0,
      };
    default: {
      // The generic tool events: preToolUse, postToolUse, postToolUseFailure.
      const tool = {
        tool_name: fields['tool_name'],
        tool_input: input,
        tool_use_id: fields['tool_call_id'],
        cwd: fields['cwd'],
      };
      if (event === 'PostToolUse')
        return { ...base, ...tool, tool_output: resultText(fields['tool_response']), duration: 0 };
      if (event === 'PostToolUseFailure')
        return { ...base, ...tool, error_message: fields['error'], failure_type: 'error' };
      return { ...base, ...tool };
    }
  }
}

const PERMISSIONS = new Set(['allow', 'deny', 'ask']);

function answer(event: HookEventName, value: DialectFields): DialectFields {
  const top: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const userMessage = stringField(value, 'user_message', 'userMessage');
  const agentMessage = stringField(value, 'agent_message', 'agentMessage');
  const context = stringField(value, 'additional_context', 'additionalContext');
  switch (event) {
    case 'PreToolUse': {
      const permission = value['permission'];
      if (typeof permission === 'string' && PERMISSIONS.has(permission))
        specific['permissionDecision'] = permission;
      // The model reads `agent_message`; `user_message` is the user's.
      const reason = agentMessage ?? userMessage;
      if (reason !== undefined && permission !== 'allow')
        specific['permissionDecisionReason'] = reason;
      const updated = objectField(anyField(value, 'updated_input', 'updatedInput'));
      if (updated !== undefined) specific['updatedInput'] = updated;
      if (userMessage !== undefined) top['systemMessage'] = userMessage;
      break;
    }
    case 'UserPromptSubmit':
      // `continue: false` keeps the prompt from the model; `user_message` says why.
      if (value['continue'] === false) {
        top['decision'] = 'block';
        top['reason'] = userMessage ?? 'blocked by a beforeSubmitPrompt hook';
      }
      break;
    case 'Stop':
    case 'SubagentStop': {
      const followup = stringField(value, 'followup_message', 'followupMessage');
      if (followup !== undefined && followup.trim() !== '') {
        top['decision'] = 'block';
        top['reason'] = followup;
      }
      break;
    }
    case 'PostToolUse': {
      const output = anyField(value, 'updated_mcp_tool_output', 'updatedMCPToolOutput');
      if (output !== undefined) specific['updatedToolOutput'] = output;
      break;
    }
    default:
      break;
  }
  if (context !== undefined) specific['additionalContext'] = context;
  return withSpecific(event, top, specific);
}

export const cursorEnvelope: DialectEnvelope = { payload, answer };
