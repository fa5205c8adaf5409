import { strict as assert } from 'node:assert';
import { decodeUtf8 } from '../../../src/core/textEncoding';

const utf8 = (text: string) => new TextEncoder().encode(text);
function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes[2 * i] = text.charCodeAt(i);
  return bytes;
}

describe('decodeUtf8: a workspace file in another encoding is named, not read as mojibake', () => {
  it('reads UTF-8, with or without a byte-order mark', () => {
    assert.deepEqual(decodeUtf8(utf8('name: café\n'), 'a.yaml'), { ok: true, text: 'name: café\n' });
    assert.deepEqual(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('x')]), 'a.yaml'), { ok: true, text: 'x' });
  });

  it('names UTF-16 with a byte-order mark, and its byte order', () => {
    const le = decodeUtf8(Uint8Array.from([0xff, 0xfe, ...utf16le('name: x\n')]), 'a.yaml');
    assert.ok(!le.ok);
    assert.match(le.message, /^a\.yaml is UTF-16 \(little-endian\), not UTF-8\. Save it as UTF-8/);
    const be = decodeUtf8(Uint8Array.from([0xfe, 0xff, 0, 0x6e]), 'a.yaml');
    assert.ok(!be.ok);
    assert.match(be.message, /big-endian/);
  });

  it('recognizes UTF-16 without a byte-order mark', () => {
    const result = decodeUtf8(utf16le('name: review\nphases: []\n'), 'b.yaml');
    assert.ok(!result.ok);
    assert.match(result.message, /b\.yaml looks like UTF-16 \(little-endian\)/);
  });

  it('names a Latin-1 byte and its line', () => {
    const result = decodeUtf8(Uint8Array.from([...utf8('name: x\nd: caf'), 0xe9, 0x0a]), 'c.yaml');
    assert.ok(!result.ok);
    assert.match(result.message, /c\.yaml is not UTF-8 \(byte 0xe9 on line 2; it is probably Latin-1/);
  });
});
