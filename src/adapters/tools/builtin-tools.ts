import type { Tool } from '../../loop/tool.ts';
import { createConfinement } from './confinement.ts';
import { editFileTool } from './edit-file-tool.ts';
import { globTool } from './glob-tool.ts';
import type { GlobToolOptions } from './glob-tool.ts';
import { grepTool } from './grep-tool.ts';
import type { GrepToolOptions } from './grep-tool.ts';
import { readFileTool } from './read-file-tool.ts';
import type { ReadFileToolOptions } from './read-file-tool.ts';
import { shellTool } from './shell-tool.ts';
import type { ShellToolOptions } from './shell-tool.ts';
import { writeFileTool } from './write-file-tool.ts';

/** Per-tool options of `builtinTools`; each defaults as its own factory does. */
export interface BuiltinToolsOptions {
  readonly readFile?: ReadFileToolOptions;
  readonly glob?: GlobToolOptions;
  readonly grep?: GrepToolOptions;
  readonly shell?: ShellToolOptions;
  /**
   * Directories the file tools may use besides the project directory (`--add-dir`); the file
   * tools refuse every other path (by real path: `../`, absolute paths and links included).
   */
  readonly additionalDirectories?: readonly string[];
}

/**
 * The six built-in tools of `hookwire run`, in a fixed order: `read_file`, `write_file`,
 * `edit_file`, `glob`, `grep`, `shell`. Each call returns fresh instances.
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const confinement = createConfinement(
    options.additionalDirectories === undefined
      ? {}
      : { additionalDirectories: options.additionalDirectories },
  );
  return [
    readFileTool({ confinement, ...options.readFile }),
    writeFileTool({ confinement }),
    editFileTool({ confinement }),
    globTool(options.glob),
    grepTool({ confinement, ...options.grep }),
    shellTool(options.shell),
  ];
}
