const NAME_LENGTH = 40;

/** The default hook name: the command, whitespace collapsed, cut to 40 characters. */
export function defaultHookName(command: string): string {
  const collapsed = command.trim().replace(/\s+/g, ' ');
  return collapsed.length <= NAME_LENGTH ? collapsed : `${collapsed.slice(0, NAME_LENGTH - 1)}…`;
}
