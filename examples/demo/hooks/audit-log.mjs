#!/usr/bin/env node
// PreToolUse/PostToolUse audit log: appends one JSON line per tool call and result to
// $HOOKWIRE_PROJECT_DIR/.hookwire/audit.jsonl. Prints nothing, so it never changes the run.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const payload = JSON.parse(readFileSync(0, 'utf8'));
const directory = join(process.env.HOOKWIRE_PROJECT_DIR ?? payload.cwd, '.hookwire');
mkdirSync(directory, { recursive: true });
const entry = {
  at: payload.timestamp,
  session: payload.session_id,
  event: payload.hook_event_name,
  tool: payload.tool_name,
  call: payload.tool_call_id,
  input: payload.tool_input,
  ...(payload.tool_response === undefined ? {} : { response: payload.tool_response }),
};
appendFileSync(join(directory, 'audit.jsonl'), JSON.stringify(entry) + '\n');
