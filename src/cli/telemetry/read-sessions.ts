import { defaultSessionsDir, findSessionFile, listSessionFiles } from '../../loop/session-files.ts';
import { childTranscriptPath, readTranscript, type TranscriptRecord } from '../../loop/index.ts';

/**
 * The transcript of one subagent of a session, found through the parent's `subagent-start`
 * record (`<parent>.agents/<agent id>.jsonl`), with its own subagents (deeper nesting).
 */
export interface ReadAgentTranscript {
  readonly agentId: string;
  readonly agentType: string;
  /** The parent's `agent` tool call that ran it, and the parent's turn. */
  readonly toolCallId: string;
  readonly turn: number;
  readonly transcriptPath: string;
  readonly records: readonly TranscriptRecord[];
  readonly agents: readonly ReadAgentTranscript[];
}

/** One past session read back. */
export interface ReadSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly records: readonly TranscriptRecord[];
  /** Its subagents' transcripts, in the order they started. */
  readonly agents: readonly ReadAgentTranscript[];
  /** Lines skipped (a crash's truncated last line), unreadable subagent transcripts: one warning each. */
  readonly warnings: readonly string[];
}

/** An agent id as hookwire writes them; anything else is not followed (no path tricks). */
const AGENT_ID = /^agent-[A-Za-z0-9-]+$/;
/** Nesting followed at most (far above any `--max-agent-depth` in use; bounds a corrupt file). */
const MAX_DEPTH = 16;

/**
 * The subagent transcripts linked from `records` (a transcript at `transcriptPath`), read
 * recursively. A missing or unreadable one is a warning, never an error: the parent still reads.
 */
async function readAgents(
  transcriptPath: string,
  records: readonly TranscriptRecord[],
  warnings: string[],
  depth: number,
): Promise<ReadAgentTranscript[]> {
  if (depth > MAX_DEPTH) return [];
  const agents: ReadAgentTranscript[] = [];
  for (const record of records) {
    if (record.type !== 'subagent-start' || !AGENT_ID.test(record.agentId)) continue;
    // Beside the parent, wherever the project now is (the recorded path may have moved with it).
    const path = childTranscriptPath(transcriptPath, record.agentId);
    let contents;
    try {
      contents = await readTranscript(path);
    } catch (error) {
      warnings.push(
        `the transcript of subagent ${record.agentId} (${record.agentType}) cannot be read: ${error instanceof Error ? error.message : String(error)}; its hook runs are not counted`,
      );
      continue;
    }
    for (const warning of contents.warnings) warnings.push(warning);
    agents.push({
      agentId: record.agentId,
      agentType: record.agentType,
      toolCallId: record.toolCallId,
      turn: record.turn,
      transcriptPath: path,
      records: contents.records,
      agents: await readAgents(path, contents.records, warnings, depth + 1),
    });
  }
  return agents;
}

/**
 * Reads the sessions `sessionIds` of the project (or, when none is given, its `last` most
 * recently written ones), each with its subagents' transcripts. An unknown id throws a
 * `LoopError` naming the folder searched.
 */
export async function readSessions(
  projectDir: string,
  sessionIds: readonly string[],
  last: number,
): Promise<ReadSession[]> {
  const sessionsDir = defaultSessionsDir(projectDir);
  const files =
    sessionIds.length > 0
      ? await Promise.all(sessionIds.map((id) => findSessionFile(sessionsDir, id)))
      : (await listSessionFiles(sessionsDir)).slice(0, last);
  return Promise.all(
    files.map(async (file) => {
      const contents = await readTranscript(file.transcriptPath);
      const warnings = [...contents.warnings];
      const agents = await readAgents(file.transcriptPath, contents.records, warnings, 1);
      return {
        sessionId: file.sessionId,
        transcriptPath: file.transcriptPath,
        records: contents.records,
        agents,
        warnings,
      };
    }),
  );
}

/** Every subagent transcript of `agents`, depth first (a child before its own children). */
export function allAgents(agents: readonly ReadAgentTranscript[]): ReadAgentTranscript[] {
  return agents.flatMap((agent) => [agent, ...allAgents(agent.agents)]);
}
