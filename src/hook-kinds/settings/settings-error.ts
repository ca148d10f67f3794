import { HookwireError } from '../../content/index.ts';
import { MAX_LISTED_ISSUES } from './settings-limits.ts';
import { formatIssueLocation, type SettingsIssue } from './settings-issue.ts';

/**
 * The settings could not be loaded. `issues` holds every problem of every file, in file order
 * (managed, user, project, local, extra) and document order within a file; the message lists
 * them all, one per line, each with its fix. `code` is `settings_invalid`.
 */
export class SettingsError extends HookwireError {
  readonly issues: readonly SettingsIssue[];

  constructor(issues: readonly SettingsIssue[]) {
    super('settings_invalid', formatSettingsIssues(issues));
    this.name = 'SettingsError';
    this.issues = issues;
  }
}

/**
 * The issues as printed by `hookwire hooks validate`: a count, then one issue per line (the first
 * `MAX_LISTED_ISSUES`, then one line counting the rest).
 */
export function formatSettingsIssues(issues: readonly SettingsIssue[]): string {
  const lines = issues
    .slice(0, MAX_LISTED_ISSUES)
    .map((issue) => `  ${formatIssueLocation(issue)}: ${issue.message}; fix: ${issue.fix}`);
  const unlisted = issues.length - MAX_LISTED_ISSUES;
  if (unlisted > 0)
    lines.push(
      `  … and ${unlisted} more ${unlisted === 1 ? 'issue' : 'issues'} (fix the ones above and validate again; the \`issues\` of the SettingsError list them all)`,
    );
  const heading =
    issues.length === 1
      ? 'Invalid hook settings (1 issue):'
      : `Invalid hook settings (${issues.length} issues):`;
  return [heading, ...lines].join('\n');
}
