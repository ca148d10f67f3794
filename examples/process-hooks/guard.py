"""A process hook: one long-lived process answering hookwire's JSON-RPC 2.0 requests, one per line."""
import json, re, sys

def judge(event):
    command = (event.get("tool_input") or {}).get("command", "")
    if event.get("hook_event_name") == "PreToolUse" and re.search(r"\brm\s+-rf\b", command):
        return {"decision": "deny", "reason": f'refusing to run "{command}"'}
    return None  # no opinion: the call goes ahead

for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") != "hook" or "id" not in message:
        continue  # notifications such as $/cancelRequest need no answer
    try:
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": judge(message["params"])}
    except Exception as error:
        reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32000, "message": str(error)}}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
