// A process hook: one long-lived process answering hookwire's JSON-RPC 2.0 requests, one per line.
import { createInterface } from 'node:readline';
function judge(event) {
  const command = event.tool_input?.command ?? '';
  if (event.hook_event_name === 'PreToolUse' && /\brm\s+-rf\b/.test(command))
    return { decision: 'deny', reason: `refusing to run "${command}"` };
  return null; // no opinion: the call goes ahead
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method !== 'hook' || message.id === undefined) continue; // e.g. $/cancelRequest
  let reply;
  try {
    reply = { jsonrpc: '2.0', id: message.id, result: judge(message.params) };
  } catch (error) {
    reply = { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: String(error) } };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
