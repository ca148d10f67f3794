import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * True while some process of the group is still running (zombies excluded). Where `/proc` is
 * readable (Linux) the group's members are looked up there, so a group whose last members are
 * zombies waiting for a lazy init to reap them counts as gone; elsewhere this is
 * `isProcessGroupAlive`. Costs a scan of `/proc`: call it while killing, not per hook run.
 */
export function hasRunningMembers(groupId: number): boolean {
  if (!isProcessGroupAlive(groupId)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === groupId && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}
