#!/usr/bin/env node
// PreToolUse guard for the `shell` tool: denies commands that destroy files wholesale.
// Reads the hook payload on stdin; exit 2 blocks with stderr as the reason (the model sees it as
// the tool's error). Configured with "failClosed": true, so if this script crashes or hangs the
// shell call is denied rather than let through.
import { readFileSync } from 'node:fs';

const payload = JSON.parse(readFileSync(0, 'utf8'));
const command = String(payload.tool_input?.command ?? '');
const dangerous = [
  /\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r)\b/,
  /\bmkfs\b/,
  /\bdd\s+if=/,
  /:\(\)\s*\{/,
];
if (dangerous.some((pattern) => pattern.test(command))) {
  process.stderr.write(
    `Blocked by guard-shell: "${command}" would delete files recursively. Inspect first, then remove specific files.`,
  );
  process.exit(2);
}
process.stdout.write(JSON.stringify({ decision: 'allow' }));
