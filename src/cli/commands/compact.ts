import { writeStdout } from '../output/stdout.ts';
import { createAgent, type Session } from '../../loop/index.ts';
import { resolveModel } from '../model-spec.ts';
import {
  openCommandHookSession,
  projectDirOf,
  untrustedNotice,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** Options of `hookwire compact` (as commander parses them). */
export interface CompactCommandOptions extends SettingsCommandOptions {
  readonly model: string;
  readonly baseUrl?: string;
  readonly instructions?: string;
}

/**
 * `hookwire compact SESSION_ID`: compacts the session's history now (trigger `manual`), through
 * the settings' PreCompact and PostCompact hooks: the model of `--model` summarizes the older
 * turns, the transcript records the compaction, and `hookwire run --resume SESSION_ID`
 * continues from the compacted history. Prints the summary on stdout and one line on stderr;
 * exit status 0 when compacted, 1 when there was nothing to compact or a hook stopped it.
 */
export async function compactCommand(
  sessionId: string,
  options: CompactCommandOptions,
): Promise<number> {
  const hookSession = await openCommandHookSession(options);
  const notice = untrustedNotice(hookSession.settings, options);
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
  let session: Session | undefined;
  try {
    const model = await resolveModel(options.model, {
      invocationDir: process.cwd(),
      env: process.env,
      ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    });
    const agent = createAgent({ model, hooks: hookSession.stack, cwd: projectDirOf(options) });
    session = await agent.openSession({ sessionId, resume: true });
    const interruption = new AbortController();
    const onSignal = (): void => {
      interruption.abort('interrupted');
    };
    process.once('SIGINT', onSignal);
    let outcome;
    try {
      outcome = await session.compact({
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        signal: interruption.signal,
        onReport: (report) => {
          process.stderr.write(`hookwire: ${report.level}: ${report.text}\n`);
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
    }
    if (outcome.kind !== 'compacted') {
      process.stderr.write(`hookwire: session ${sessionId} was not compacted: ${outcome.reason}\n`);
      return 1;
    }
    writeStdout(`${outcome.summary}\n`);
    process.stderr.write(
      `hookwire: compacted ${outcome.summarizedMessages} message(s) of session ${sessionId} into a summary (about ${outcome.tokensBefore} → ${outcome.tokensAfter} tokens); continue with hookwire run --resume ${sessionId}\n`,
    );
    return 0;
  } finally {
    await session?.close('other');
    await hookSession.close();
  }
}
