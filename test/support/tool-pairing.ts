/**
 * The providers' tool-call / tool-result pairing rule, as a check: every assistant tool call is
 * answered by the tool result(s) right after it, and no tool result answers a call that is not
 * there. OpenAI (Chat and Responses) and Anthropic reject a history that breaks it with a 400;
 * the loopback server enforces it the same way (`enforceToolPairing`).
 */
import type { Message } from '../../src/content/index.ts';

/** The problems of a neutral history (empty when every call is answered right after it). */
export function historyPairingProblems(history: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let index = 0; index < history.length; index++) {
    const message = history[index] as Message;
    const answered = new Set<string>();
    if (message.speaker === 'tool') {
      const previous = history[index - 1];
      const calls = new Set(
        previous?.speaker === 'ai'
          ? previous.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : []))
          : [],
      );
      for (const block of message.blocks) {
        if (block.type !== 'tool_response') continue;
        if (!calls.has(block.callId))
          problems.push(`message ${index}: a tool result for ${block.callId} answers no call`);
      }
      continue;
    }
    if (message.speaker !== 'ai') continue;
    const next = history[index + 1];
    if (next?.speaker === 'tool')
      for (const block of next.blocks)
        if (block.type === 'tool_response') answered.add(block.callId);
    for (const block of message.blocks) {
      if (block.type === 'tool_call' && !answered.has(block.id))
        problems.push(`message ${index}: tool call ${block.id} has no result after it`);
    }
  }
  return problems;
}

interface ChatMessage {
  readonly role?: unknown;
  readonly tool_calls?: readonly { readonly id?: unknown }[];
  readonly tool_call_id?: unknown;
}

/**
 * The OpenAI Chat Completions 400 message for a `messages` array that breaks the pairing (the
 * wording of OpenAI's own errors), or undefined when it holds.
 */
export function chatPairingError(body: unknown): string | undefined {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  const list = messages as readonly ChatMessage[];
  for (let index = 0; index < list.length; index++) {
    const message = list[index] as ChatMessage;
    if (message.role === 'tool') {
      // It must follow an assistant message with tool_calls, possibly after other tool messages.
      let back = index - 1;
      while (back >= 0 && list[back]?.role === 'tool') back--;
      const owner = list[back];
      const ids = (owner?.role === 'assistant' ? (owner.tool_calls ?? []) : []).map(
        (call) => call.id,
      );
      if (!ids.includes(message.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${index}])`;
      continue;
    }
    if (message.role !== 'assistant' || (message.tool_calls ?? []).length === 0) continue;
    const answered = new Set<unknown>();
    for (let next = index + 1; next < list.length && list[next]?.role === 'tool'; next++)
      answered.add(list[next]?.tool_call_id);
    const missing = (message.tool_calls ?? [])
      .map((call) => call.id)
      .filter((id) => !answered.has(id));
    if (missing.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.map(String).join(', ')} (messages.[${index}].role)`;
  }
  return undefined;
}
