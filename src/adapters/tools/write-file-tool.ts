import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { writeFileAtomically } from './atomic-write.ts';
import { confinementRoot, createConfinement, type Confinement } from './confinement.ts';
import { displayPath, resolveToolPath } from './tool-paths.ts';
import { writeFailure } from './write-failure.ts';

interface WriteFileArguments {
  readonly path: string;
  readonly content: string;
}

/**
 * `write_file {path, content}`: creates or replaces a file with `content` (UTF-8), creating its
 * parent directories. The write is atomic (a temporary file renamed over the target). The result
 * is a one-line confirmation with the byte count.
 */
export function writeFileTool(options: { readonly confinement?: Confinement } = {}): Tool {
  const confinement = options.confinement ?? createConfinement();
  return {
    declaration: {
      name: 'write_file',
      description:
        'Create a file, or replace its entire contents, with `content` (UTF-8 text). `path` is ' +
        'relative to the project directory; missing parent directories are created. To change ' +
        'part of an existing file, use edit_file instead.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, description: 'The file to write.' },
          content: { type: 'string', description: 'The complete new contents of the file.' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<string> {
      const { path, content } = args as WriteFileArguments;
      const absolutePath = resolveToolPath(context.cwd, path);
      const shownPath = displayPath(context.cwd, absolutePath);
      const bytes = Buffer.from(content, 'utf8');
      const realPath = await confinement.resolve('write_file', context.cwd, path);
      const beneath = await confinementRoot(confinement, context.cwd, realPath);
      try {
        await writeFileAtomically(realPath, bytes, { beneath });
      } catch (error) {
        throw writeFailure('write_file', error, shownPath);
      }
      return `Wrote ${bytes.length} bytes to ${shownPath}`;
    },
  };
}
