/**
 * Sends `signal` to every process of the process group `groupId`. Returns false when the group
 * no longer exists (or cannot be signalled); never throws, because a group that vanished while
 * we were about to kill it is the outcome we wanted.
 */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while some process of the group exists. A zombie member (exited, not yet reaped by an
 * init that reaps lazily) still counts, so this can only err towards killing a group that is
 * already dead, which is harmless.
 */
export function isProcessGroupAlive(groupId: number): boolean {
  return signalProcessGroup(groupId, 0);
}
