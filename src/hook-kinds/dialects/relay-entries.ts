/**
 * The entries `hookwire relay install` writes into other tools' settings files (decision 0035):
 * each runs hookwire's own hooks through the project's daemon. hookwire's dialect readers
 * recognise them by their command and never run them from `hookwire run` — running one would
 * relay hookwire's hooks back into hookwire (a loop), and hookwire's own layers already run
 * those hooks. One place says what a relay entry looks like, for the writer and the readers.
 */

/** The program name every relay entry's command holds (the native client, or the Node one's tag). */
export const RELAY_MARKER = 'hookwire-relay';

/** True for a command a relay install wrote (the native client, or `hookwire relay hook`). */
export function isRelayCommand(command: string): boolean {
  return command.includes(RELAY_MARKER) || /\brelay hook --from\b/.test(command);
}
