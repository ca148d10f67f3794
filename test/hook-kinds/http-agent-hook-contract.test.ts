/**
 * The `AgentHook` contract suite run against http hooks: every scripted hook becomes one path of
 * a real server on 127.0.0.1 that logs what it saw and answers the hook output meaning the same
 * answer, so http hooks compose exactly as command hooks and in-process hooks do.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { commandHookForGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { createHttpHookRunner } from '../../src/hook-kinds/http/index.ts';
import { describeAgentHookContract } from '../../src/hooks/testing/index.ts';
import { hookOutputFor } from './contract-output.ts';
import { groupOf, httpHook, kindStates } from './support.ts';

type Handler = (payload: Record<string, unknown>) => string;
const handlers = new Map<string, Handler>();
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const handler = handlers.get(request.url ?? '');
    if (handler === undefined) response.writeHead(404).end();
    else
      response
        .writeHead(200)
        .end(
          handler(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>),
        );
  });
});
let base = '';
const commands = createDirectRunner();
const http = createHttpHookRunner();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await commands.close();
});

let counter = 0;

describeAgentHookContract('http hook (a loopback server per hook path)', (spec, log) => {
  const seenField =
    spec.event === 'PreToolUse'
      ? 'tool_input'
      : spec.event === 'PostToolUse'
        ? 'tool_response'
        : undefined;
  const path = `/hook-${++counter}`;
  const output = hookOutputFor(spec);
  handlers.set(path, (payload) => {
    const seen = seenField === undefined ? null : payload[seenField];
    appendFileSync(log.path, `${JSON.stringify({ label: spec.label, seen })}\n`);
    return output === undefined ? '' : JSON.stringify(output);
  });
  const group = groupOf(spec.event, [httpHook(`${base}${path}`, { name: spec.label })]);
  return commandHookForGroup(group, {
    runner: commands,
    projectDir: '/tmp',
    kinds: kindStates({ http }),
  });
});
