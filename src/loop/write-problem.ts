/**
 * Naming a failed write for people: `disk full` for ENOSPC, and so on.
 */

/** What a write's errno means, as the start of a message. */
export function writeProblem(errno: string | undefined): string {
  switch (errno) {
    case 'ENOSPC':
      return 'disk full';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large';
    case 'EROFS':
      return 'read-only file system';
    case 'EIO':
      return 'I/O error';
    default:
      return errno === undefined ? 'write failed' : `write failed (${errno})`;
  }
}
