import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { isAbsolute, resolve } from 'node:path';
import { ToolError } from './tool-error.ts';

/** Options of the `glob` tool. */
export interface GlobToolOptions {
  /** Paths listed at most; more are cut with a note. Default 1000. */
  readonly maxResults?: number;
  /**
   * Files the permission rules withhold from reading (`withheldFiles`): given a file's absolute
   * path and the call's cwd, `true` leaves it out of the listing. Default none.
   */
  readonly withheld?: (path: string, cwd: string) => boolean;
}

interface GlobArguments {
  readonly pattern: string;
}

const DEFAULT_MAX_RESULTS = 1000;

// Dependency trees and version-control internals: never what the model is looking for.
const IGNORE_PATTERNS = ['**/node_modules/**', '**/.git/**'] as const;

/**
 * `glob {pattern}`: the files under the run's cwd matching a glob pattern (`**`, `*`, `?`,
 * braces, extglobs), one path per line relative to cwd, sorted by code unit so the listing is
 * deterministic. Dot files, `node_modules` and `.git` are skipped. More than `maxResults` paths
 * are cut with a note giving the total.
 */
export function globTool(options: GlobToolOptions = {}): Tool {
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
  return {
    declaration: {
      name: 'glob',
      description:
        'List the files under the project directory that match a glob pattern, such as ' +
        '`src/**/*.ts` or `*.{json,md}`. Paths are relative to the project directory, sorted, one ' +
        `per line; dot files, node_modules and .git are skipped; at most ${maxResults} are listed.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', minLength: 1, description: 'The glob pattern to match.' },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<string> {
      const { pattern } = args as GlobArguments;
      if (isAbsolute(pattern) || pattern.startsWith('~') || pattern.split(/[\\/]/).includes('..')) {
        throw new ToolError(
          'glob',
          'path_outside_project',
          `${pattern} reaches outside the project directory: glob lists files under the project directory only. Use a pattern relative to it, without "..".`,
        );
      }
      let paths: string[];
      try {
        // Loaded by the first glob call: runs that never glob never load it.
        const { glob } = await import('tinyglobby');
        paths = await glob(pattern, {
          cwd: context.cwd,
          dot: false,
          // A linked directory may lead outside the project: its files are not listed.
          followSymbolicLinks: false,
          ignore: IGNORE_PATTERNS,
          signal: context.signal,
        });
      } catch (error) {
        if (context.signal.aborted) throw context.signal.reason;
        throw new ToolError(
          'glob',
          'glob_failed',
          `Could not match ${pattern}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const withheld = options.withheld;
      if (withheld !== undefined)
        paths = paths.filter((path) => !withheld(resolve(context.cwd, path), context.cwd));
      if (paths.length === 0) return `No files match ${pattern}`;
      paths.sort();
      if (paths.length <= maxResults) return paths.join('\n');
      return `${paths.slice(0, maxResults).join('\n')}\n[truncated: showed ${maxResults} of ${paths.length} matching files; use a narrower pattern]`;
    },
  };
}
