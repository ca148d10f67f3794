/**
 * GitHub Copilot CLI's camelCase hooks (`preToolUse`, `agentStop`, …): the payloads its hooks
 * reference gives (`sessionId`, a millisecond `timestamp`, `toolName`, `toolArgs` as a JSON
 * *string*, `toolResult`), and its answers (`permissionDecision`, `modifiedArgs`,
 * `modifiedResult`, `behavior`, `decision: "block"`, `additionalContext`) read back.
 */
import type { HookEventName } from '../../../events/index.ts';
import type { DialectEnvelope, DialectFields } from '../dialect-contract.ts';
import {
  argumentsObject,
  epochMilliseconds,
  objectField,
  resultText,
  stringField,
  withSpecific,
} from '../envelope-fields.ts';

const SESSION_END_REASONS: Readonly<Record<string, string>> = {
  exit: 'user_exit',
  logout: 'user_exit',
  clear: 'complete',
  other: 'complete',
};

function toolFields(payload: DialectFields): DialectFields {
  return {
    toolName: payload['tool_name'],
    // Copilot CLI gives the arguments as a JSON string; its hooks parse it (`jq -r '.toolArgs' | jq`).
    toolArgs: JSON.stringify(payload['tool_input'] ?? {}),
  };
}

/** A tool's outcome as Copilot CLI reports it: a denied call (hookwire's `{result: null, error}`) says so. */
function toolResult(response: unknown): DialectFields {
  const outcome = objectField(response);
  if (outcome !== undefined && outcome['result'] === null && typeof outcome['error'] === 'string')
    return { resultType: 'denied', textResultForLlm: outcome['error'] };
  return { resultType: 'success', textResultForLlm: resultText(response) };
}

function payload(name: string, event: HookEventName, fields: DialectFields): DialectFields {
  const base = {
    sessionId: fields['session_id'],
    timestamp: epochMilliseconds(fields['timestamp']),
    cwd: fields['cwd'],
  };
  const transcript = { transcriptPath: fields['transcript_path'] };
  switch (event) {
    case 'SessionStart':
      return { ...base, source: fields['source'] === 'resume' ? 'resume' : 'new' };
    case 'SessionEnd':
      return { ...base, reason: SESSION_END_REASONS[String(fields['reason'])] ?? 'complete' };
    case 'UserPromptSubmit':
      return { ...base, prompt: fields['prompt'] };
    case 'PreToolUse':
    case 'PermissionRequest':
      return { ...base, ...toolFields(fields) };
    case 'PostToolUse':
      return {
        ...base,
        ...toolFields(fields),
        toolResult: toolResult(fields['tool_response']),
      };
    case 'PostToolUseFailure':
      return { ...base, ...toolFields(fields), error: fields['error'] };
    case 'Stop':
      return { ...base, ...transcript, stopReason: 'end_turn' };
    case 'SubagentStart':
      return {
        ...base,
        ...transcript,
        agentName: fields['agent_type'],
        agentDescription: fields['description'],
      };
    case 'SubagentStop':
      return { ...base, ...transcript, agentName: fields['agent_type'], stopReason: 'end_turn' };
    case 'PreCompact':
      return {
        ...base,
        ...transcript,
        trigger: fields['trigger'],
        customInstructions: fields['custom_instructions'] ?? '',
      };
    case 'StopFailure':
      return {
        ...base,
        error: { message: fields['error'], name: 'Error' },
        errorContext: 'model_call',
        recoverable: false,
      };
    case 'Notification':
      return {
        ...base,
        hook_event_name: 'Notification',
        message: fields['message'],
        notification_type: fields['notification_type'],
      };
    default:
      return { ...base, hookEventName: name };
  }
}

const DECISIONS = new Set(['allow', 'deny', 'ask']);

function answer(event: HookEventName, value: DialectFields): DialectFields {
  const top: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const context = stringField(value, 'additionalContext');
  if (context !== undefined) specific['additionalContext'] = context;
  switch (event) {
    case 'PreToolUse': {
      const decision = value['permissionDecision'];
      if (typeof decision === 'string' && DECISIONS.has(decision))
        specific['permissionDecision'] = decision;
      const reason = stringField(value, 'permissionDecisionReason');
      if (reason !== undefined) specific['permissionDecisionReason'] = reason;
      const args = argumentsObject(value['modifiedArgs']);
      if (args !== undefined) specific['updatedInput'] = args;
      break;
    }
    case 'PostToolUse':
      if (value['modifiedResult'] !== undefined) {
        const result = objectField(value['modifiedResult']);
        specific['updatedToolOutput'] =
          result === undefined ? value['modifiedResult'] : result['textResultForLlm'];
      }
      break;
    case 'PermissionRequest': {
      const behavior = value['behavior'];
      const message = stringField(value, 'message');
      if (behavior === 'allow' || behavior === 'deny')
        specific['decision'] = { behavior, ...(message === undefined ? {} : { message }) };
      // `interrupt: true` with a deny stops the agent entirely.
      if (behavior === 'deny' && value['interrupt'] === true) {
        top['continue'] = false;
        top['stopReason'] = message ?? 'stopped by a permissionRequest hook (interrupt)';
      }
      break;
    }
    case 'Stop':
    case 'SubagentStop':
      if (value['decision'] === 'block') {
        top['decision'] = 'block';
        const reason = stringField(value, 'reason');
        if (reason !== undefined) top['reason'] = reason;
      }
      break;
    default:
      break;
  }
  return withSpecific(event, top, specific);
}

export const copilotEnvelope: DialectEnvelope = { payload, answer };
