import { open } from 'node:fs/promises';
import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { isBinaryContent } from './binary-content.ts';
import { ToolError } from './tool-error.ts';
import { createConfinement, type Confinement } from './confinement.ts';
import { displayPath, resolveToolPath, systemErrorCode } from './tool-paths.ts';

/** Options of the `read_file` tool. */
export interface ReadFileToolOptions {
  /** Bytes read at most; the rest of a larger file is cut with a note. Default 256 KiB. */
  readonly maxBytes?: number;
  /** Where the tool may read; default the project directory only (see `createConfinement`). */
  readonly confinement?: Confinement;
}

interface ReadFileArguments {
  readonly path: string;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

/**
 * `read_file {path}`: the UTF-8 text of a file, the path relative to the run's cwd (absolute
 * paths allowed). A file larger than `maxBytes` is cut at a character boundary and ends with a
 * note saying so. A missing file, a directory or a binary file is an error naming the path.
 */
export function readFileTool(options: ReadFileToolOptions = {}): Tool {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const confinement = options.confinement ?? createConfinement();
  return {
    declaration: {
      name: 'read_file',
      description:
        'Read a UTF-8 text file and return its contents. `path` is relative to the project ' +
        `directory (absolute paths also work). Files larger than ${maxBytes} bytes are truncated, ` +
        'with a note at the end.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, description: 'The file to read.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<string> {
      const { path } = args as ReadFileArguments;
      const absolutePath = resolveToolPath(context.cwd, path);
      const shownPath = displayPath(context.cwd, absolutePath);
      const realPath = await confinement.resolve('read_file', context.cwd, path);
      let handle;
      try {
        handle = await open(realPath, 'r');
      } catch (error) {
        throw readError(error, shownPath);
      }
      try {
        const info = await handle.stat();
        if (info.isDirectory()) {
          throw new ToolError(
            'read_file',
            'is_directory',
            `${shownPath} is a directory, not a file; use glob to list its files.`,
          );
        }
        const length = Math.min(info.size, maxBytes);
        const buffer = Buffer.allocUnsafe(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        const bytes = buffer.subarray(0, filled);
        if (isBinaryContent(bytes)) {
          throw new ToolError(
            'read_file',
            'binary_file',
            `${shownPath} is a binary file (${info.size} bytes); read_file reads text files only.`,
          );
        }
        if (info.size <= maxBytes) return bytes.toString('utf8');
        // `stream: true` holds back a multi-byte character cut at the end instead of mangling it.
        const text = new TextDecoder('utf-8').decode(bytes, { stream: true });
        return `${text}\n[truncated: showed the first ${filled} of ${info.size} bytes of ${shownPath}]`;
      } finally {
        await handle.close();
      }
    },
  };
}

function readError(error: unknown, shownPath: string): ToolError {
  switch (systemErrorCode(error)) {
    case 'ENOENT':
      return new ToolError('read_file', 'file_not_found', `File not found: ${shownPath}`, {
        cause: error,
      });
    case 'EACCES':
    case 'EPERM':
      return new ToolError(
        'read_file',
        'permission_denied',
        `Permission denied reading ${shownPath}`,
        {
          cause: error,
        },
      );
    default:
      return new ToolError(
        'read_file',
        'read_failed',
        `Could not read ${shownPath}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
  }
}
