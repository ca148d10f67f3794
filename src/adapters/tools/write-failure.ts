import { ToolError } from './tool-error.ts';
import { systemErrorCode } from './tool-paths.ts';

/**
 * The tool error for a failed write of `shownPath` by tool `toolName`: a directory in the way, a
 * parent that is a file, a permission problem, or the system's own message.
 */
export function writeFailure(toolName: string, error: unknown, shownPath: string): ToolError {
  switch (systemErrorCode(error)) {
    case 'EISDIR':
      return new ToolError(
        toolName,
        'is_directory',
        `${shownPath} is a directory; give the path of a file.`,
        {
          cause: error,
        },
      );
    case 'ENOTDIR':
    case 'EEXIST':
      return new ToolError(
        toolName,
        'not_a_directory',
        `Cannot write ${shownPath}: a parent of it is a file, not a directory.`,
        { cause: error },
      );
    case 'ELOOP':
      return new ToolError(
        toolName,
        'path_changed',
        `Did not write ${shownPath}: a directory on its path is a symbolic link now (it changed after the path was checked); nothing was written.`,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ToolError(
        toolName,
        'permission_denied',
        `Permission denied writing ${shownPath}`,
        {
          cause: error,
        },
      );
    default:
      return new ToolError(
        toolName,
        'write_failed',
        `Could not write ${shownPath}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
  }
}
