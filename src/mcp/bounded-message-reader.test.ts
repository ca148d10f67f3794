import { describe, expect, it } from 'vitest';
import { BoundedMessageReader } from './bounded-message-reader.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('BoundedMessageReader', () => {
  it('splits lines across chunks and strips a carriage return', () => {
    const reader = new BoundedMessageReader(100);
    expect(reader.push(bytes('{"a":'))).toEqual([]);
    expect(reader.push(bytes('1}\r\n{"b":2}\n{"c"'))).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
    expect(reader.push(bytes(':3}\n'))).toEqual([{ kind: 'line', text: '{"c":3}' }]);
  });

  it('discards a line over the limit, reports its size and the id it answers (last or first), and reads on', () => {
    const reader = new BoundedMessageReader(64);
    const idLast = `{"result":{"text":"${'x'.repeat(200)}"},"jsonrpc":"2.0","id":7}`;
    const idFirst = `{"jsonrpc":"2.0","id":"r-1","result":{"text":"${'y'.repeat(200)}"}}`;
    const lines = [
      ...reader.push(bytes(idLast.slice(0, 50))),
      ...reader.push(bytes(idLast.slice(50, 120))),
      ...reader.push(bytes(`${idLast.slice(120)}\n{"ok":1}\n${idFirst}`)),
      ...reader.push(bytes('\n')),
    ];
    expect(lines).toEqual([
      { kind: 'oversized', bytes: idLast.length, id: 7 },
      { kind: 'line', text: '{"ok":1}' },
      { kind: 'oversized', bytes: idFirst.length, id: 'r-1' },
    ]);
  });

  it('an oversized line naming no id (a nested "id" is not the message id) reports none', () => {
    const reader = new BoundedMessageReader(16);
    const line = `{"method":"notifications/message","params":{"data":"${'z'.repeat(50)}","x":{"id":3}}}`;
    expect(reader.push(bytes(`${line}\n`))).toEqual([{ kind: 'oversized', bytes: line.length }]);
  });
});
