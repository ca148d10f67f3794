/**
 * The `AgentHook` contract suite run against `ahp` hooks (AHP `draft`, so `modify` of the input
 * and `flow` stop are advertised): every scripted hook becomes one AHP backend, a persistent
 * stdio process or one path of a loopback HTTP server, that logs the tool input it was sent and
 * answers the effect meaning the same answer (`[]`, `deny`, `modify`, `flow` stop). An AHP
 * backend intercepts PreToolUse only (its observers never answer), so the cases on other events
 * are reported skipped.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { AhpSession } from '../../src/hook-kinds/ahp/ahp-kind.ts';
import { commandHookForGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { describeAgentHookContract, type ScriptedHookSpec } from '../../src/hooks/testing/index.ts';
import { ahpHook, groupOf, kindStates } from './support.ts';

/** The AHP effects answering like `spec.respond`. */
function effectsFor(spec: ScriptedHookSpec): unknown[] {
  const { respond } = spec;
  switch (respond.type) {
    case 'rewriteArgs':
      return [{ type: 'modify', target: 'input', operation: 'replace', value: respond.args }];
    case 'deny':
      return [{ type: 'deny', reason: respond.reason }];
    case 'stop':
      return [{ type: 'flow', operation: 'stop', reason: respond.reason }];
    default:
      return [];
  }
}

const commands = createDirectRunner();
const sessions: AhpSession[] = [];
const scripts = mkdtempSync(join(tmpdir(), 'hookwire-ahp-contract-'));

type Handler = (request: Record<string, unknown>) => string;
const handlers = new Map<string, Handler>();
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const handler = handlers.get(request.url ?? '');
    if (handler === undefined) response.writeHead(404).end();
    else {
      const body = handler(
        JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      );
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await commands.close();
  rmSync(scripts, { recursive: true, force: true });
});

const contract = {
  responses: ['continue', 'rewriteArgs', 'deny', 'stop'] as const,
  events: ['PreToolUse'] as const,
};
const fields = {
  protocolVersion: 'draft',
  failurePolicy: 'fail-closed',
  timeoutMs: 20_000,
} as const;

let counter = 0;

describeAgentHookContract(
  'ahp hook (a persistent stdio AHP backend per hook)',
  (spec, log) => {
    const script = join(scripts, `backend-${++counter}.mjs`);
    writeFileSync(
      script,
      `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.id === undefined) continue;
  appendFileSync(${JSON.stringify(log.path)}, JSON.stringify({ label: ${JSON.stringify(spec.label)}, seen: request.params.event.tool.input }) + '\\n');
  const effects = ${JSON.stringify(effectsFor(spec))};
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: request.params.protocolVersion, effects } }) + '\\n');
}
`,
    );
    const session = new AhpSession();
    sessions.push(session);
    const group = groupOf(spec.event, [
      ahpHook(
        { type: 'stdio', command: process.execPath, args: [script], lifecycle: 'persistent' },
        { ...fields, name: spec.label },
      ),
    ]);
    return commandHookForGroup(group, {
      runner: commands,
      projectDir: scripts,
      kinds: kindStates({ ahp: session }),
    });
  },
  contract,
);

describeAgentHookContract(
  'ahp hook (a loopback HTTP AHP backend per hook path)',
  (spec, log) => {
    const path = `/ahp-${++counter}`;
    handlers.set(path, (request) => {
      const params = request['params'] as {
        protocolVersion: string;
        event: { tool: { input: unknown } };
      };
      appendFileSync(
        log.path,
        `${JSON.stringify({ label: spec.label, seen: params.event.tool.input })}\n`,
      );
      return JSON.stringify({
        jsonrpc: '2.0',
        id: request['id'],
        result: { protocolVersion: params.protocolVersion, effects: effectsFor(spec) },
      });
    });
    const session = new AhpSession();
    sessions.push(session);
    const group = groupOf(spec.event, [
      ahpHook({ type: 'http', url: `${base}${path}` }, { ...fields, name: spec.label }),
    ]);
    return commandHookForGroup(group, {
      runner: commands,
      projectDir: scripts,
      kinds: kindStates({ ahp: session }),
    });
  },
  contract,
);
