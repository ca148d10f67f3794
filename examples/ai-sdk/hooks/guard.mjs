// A PreToolUse guard: denies commands that delete recursively or force-push (exit 2, reason on
// stderr — the convention Claude Code and Gemini CLI hooks share). Reads the event on stdin.
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  const command = String(event.tool_input?.command ?? '');
  if (/\brm\s+-[a-z]*r[a-z]*f|\bgit\s+push\s+.*--force/.test(command)) {
    process.stderr.write(`"${command}" is destructive; ask the user to run it themselves`);
    process.exit(2);
  }
});
