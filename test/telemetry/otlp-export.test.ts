/**
 * `hookwire run --otel` end to end: the real CLI process, a real command hook that denies a tool
 * call, and a loopback OTLP/HTTP receiver (a node http server on 127.0.0.1) that records what the
 * exporter sends. The denial is found and explained from the received spans alone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from '../cli/support.ts';

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values: readonly OtlpValue[] };
}
interface OtlpSpan {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly kind: number;
  readonly attributes: readonly { readonly key: string; readonly value: OtlpValue }[];
  readonly status?: { readonly code?: number; readonly message?: string };
}
interface OtlpRequest {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly { key: string; value: OtlpValue }[] };
    readonly scopeSpans: readonly {
      readonly scope: { name: string };
      readonly spans: readonly OtlpSpan[];
    }[];
  }[];
}

interface Receiver {
  readonly url: string;
  readonly requests: OtlpRequest[];
  readonly paths: string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const requests: OtlpRequest[] = [];
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(
        `${request.method ?? ''} ${request.url ?? ''} ${request.headers['content-type'] ?? ''}`,
      );
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    paths,
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

function value(attribute: OtlpValue | undefined): unknown {
  if (attribute === undefined) return undefined;
  if (attribute.stringValue !== undefined) return attribute.stringValue;
  if (attribute.intValue !== undefined) return Number(attribute.intValue);
  if (attribute.boolValue !== undefined) return attribute.boolValue;
  if (attribute.doubleValue !== undefined) return attribute.doubleValue;
  if (attribute.arrayValue !== undefined) return attribute.arrayValue.values.map(value);
  return undefined;
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((entry) => [entry.key, value(entry.value)]));
}

let sandbox: Sandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  if (sandbox !== undefined) await rm(sandbox.root, { recursive: true, force: true });
  sandbox = undefined;
  receiver = undefined;
});

async function guardedProject(box: Sandbox): Promise<string[]> {
  const guard = await writeHookScript(
    box.root,
    'guard.mjs',
    `import { readFileSync } from 'node:fs';
JSON.parse(readFileSync(0, 'utf8'));
process.stderr.write('rm -rf is not allowed here');
process.exit(2);`,
  );
  const settings = await writeJson(
    join(box.root, 'settings.json'),
    settingsWith(
      { PreToolUse: [{ command: guard, name: 'no-rm' }] },
      { PreToolUse: { matcher: 'shell' } },
    ),
  );
  const script = await writeScript(join(box.root, 'model.jsonl'), [
    callTool('call-1', 'shell', { command: 'rm -rf /' }),
    say('I was not allowed to do that.'),
  ]);
  return [
    'run',
    '--model',
    `scripted:${script}`,
    '--settings',
    settings,
    '--cwd',
    box.project,
    'clean up',
  ];
}

describe('hookwire run --otel', () => {
  it('exports the run over OTLP/HTTP, where the denial and its reason sit under the tool call it denied', async () => {
    sandbox = await createSandbox();
    receiver = await startReceiver();
    const args = await guardedProject(sandbox);
    const outcome = await runCli([...args, '--otel'], {
      env: {
        ...sandbox.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'guarded-agent',
      },
    });
    // The denial's own line (text output shows decisions), and nothing about the export.
    expect(outcome.stderr.trim().split('\n')).toEqual([
      'hookwire: PreToolUse hook "no-rm" denied: rm -rf is not allowed here',
    ]);
    expect(outcome.code).toBe(0);
    expect(receiver.paths.every((path) => path === 'POST /v1/traces application/json')).toBe(true);

    const resourceSpans = receiver.requests.flatMap((request) => request.resourceSpans);
    const resource = Object.fromEntries(
      resourceSpans[0]!.resource.attributes.map((entry) => [entry.key, value(entry.value)]),
    );
    expect(resource['service.name']).toBe('guarded-agent');
    const spans = resourceSpans.flatMap((entry) =>
      entry.scopeSpans.flatMap((scope) => scope.spans),
    );
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual([
      'chat scripted',
      'chat scripted',
      'execute_tool shell',
      'hookwire.hook PreToolUse',
      'hookwire.session',
      'invoke_agent hookwire',
    ]);

    // Found: the hook span that denied. Explained: its reason, its hook, what it guarded.
    const denial = spans.find((span) => attributesOf(span)['hookwire.hook.decision'] === 'deny');
    expect(attributesOf(denial!)).toMatchObject({
      'hookwire.hook.event': 'PreToolUse',
      'hookwire.hook.name': 'no-rm',
      'hookwire.hook.kind': 'command',
      'hookwire.hook.matcher': 'shell',
      'hookwire.hook.reason': 'rm -rf is not allowed here',
      'hookwire.hook.exit_code': 2,
      'hookwire.hook.status': 'blocked',
    });
    const tool = spans.find((span) => span.spanId === denial!.parentSpanId);
    expect(tool?.name).toBe('execute_tool shell');
    expect(attributesOf(tool!)).toMatchObject({
      'gen_ai.tool.call.id': 'call-1',
      'hookwire.tool_call.status': 'skipped',
    });
    const chat = spans.find((span) => span.name === 'chat scripted');
    expect(chat?.kind).toBe(3); // SPAN_KIND_CLIENT
  });

  it('warns once on stderr and still completes when the receiver is unreachable', async () => {
    sandbox = await createSandbox();
    receiver = await startReceiver();
    const closed = receiver.url;
    await receiver.close();
    receiver = undefined;
    const args = await guardedProject(sandbox);
    const outcome = await runCli([...args, '--otel'], {
      env: {
        ...sandbox.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: closed,
        OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      },
    });
    expect(outcome.code).toBe(0);
    // The denial's line, then one warning about the export.
    expect(outcome.stderr.trim().split('\n')).toEqual([
      'hookwire: PreToolUse hook "no-rm" denied: rm -rf is not allowed here',
      expect.stringMatching(
        new RegExp(`^hookwire: some spans could not be exported to ${closed}/v1/traces: `),
      ),
    ]);
  });

  it('exports nothing without --otel or an endpoint variable, and nothing with --no-otel', async () => {
    sandbox = await createSandbox();
    receiver = await startReceiver();
    const args = await guardedProject(sandbox);
    const plain = await runCli(args, { env: sandbox.env });
    expect(plain.code).toBe(0);
    const refused = await runCli([...args, '--no-otel'], {
      env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    expect(refused.code).toBe(0);
    expect(receiver.requests).toEqual([]);
  });
});
