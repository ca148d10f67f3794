/**
 * One problem found in a settings file: where it is (`file` and a JSON `path` such as
 * `hooks.PreToolUse[0].hooks[1].timeout`; `''` for the file as a whole), what is wrong
 * (`message`) and what to write instead (`fix`). Loading collects every issue of every file.
 */
export interface SettingsIssue {
  readonly file: string;
  readonly path: string;
  readonly message: string;
  readonly fix: string;
  /** 1-based line of the problem, when known (invalid JSON). */
  readonly line?: number;
  /** 1-based column of the problem, when known (invalid JSON). */
  readonly column?: number;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * Formats path segments as a JSON path: identifiers joined with dots, array indexes in
 * brackets, any other key quoted in brackets (`hooks["Pre Tool"]`).
 */
export function formatJsonPath(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else {
      const key = String(segment);
      if (identifier.test(key)) path += path === '' ? key : `.${key}`;
      else path += `[${JSON.stringify(key)}]`;
    }
  }
  return path;
}

/**
 * The location prefix every issue is printed with: `file:line:column` when the position is
 * known, else `file`, then the JSON path when there is one.
 */
export function formatIssueLocation(
  issue: Pick<SettingsIssue, 'file' | 'path' | 'line' | 'column'>,
): string {
  const file =
    issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  return issue.path === '' ? file : `${file}: ${issue.path}`;
}
