/*
 * Files from the workspace (personas, workflows) must be UTF-8. A file in another encoding is refused with its
 * name, not read as mojibake: the user learns which encoding it is and how to save it as UTF-8.
 */

/** A file's text, or why it cannot be read as UTF-8 (one sentence that names the encoding found). */
export type DecodedText =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

const SAVE_AS_UTF8 = 'Save it as UTF-8 (in VS Code: the encoding in the status bar, then Save with Encoding, UTF-8).';

/** Bytes sampled to tell UTF-16 without a byte-order mark from text that merely contains NUL bytes. */
const SAMPLE = 4096;

function utf16Without(bytes: Uint8Array): 'little-endian' | 'big-endian' | undefined {
  const n = Math.min(bytes.length, SAMPLE) & ~1;
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.3 && evenNul < pairs * 0.05) return 'little-endian';
  if (evenNul > pairs * 0.3 && oddNul < pairs * 0.05) return 'big-endian';
  return undefined;
}

/** Where the first byte that is not part of a UTF-8 character is (a hint of what the file is). */
function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i] ?? 0;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead < 0xe0
          ? 2
          : lead >= 0xe0 && lead < 0xf0
            ? 3
            : lead >= 0xf0 && lead < 0xf5
              ? 4
              : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return bytes.length;
}

/** Decodes a workspace file's bytes as UTF-8 (a UTF-8 byte-order mark is dropped); `what` names the file. */
export function decodeUtf8(bytes: Uint8Array, what: string): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { ok: false, message: `${what} is UTF-16 (little-endian), not UTF-8. ${SAVE_AS_UTF8}` };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { ok: false, message: `${what} is UTF-16 (big-endian), not UTF-8. ${SAVE_AS_UTF8}` };
  const utf16 = utf16Without(bytes);
  if (utf16) return { ok: false, message: `${what} looks like UTF-16 (${utf16}), not UTF-8. ${SAVE_AS_UTF8}` };
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    const at = firstInvalidByte(body);
    const line = new TextDecoder('utf-8').decode(body.subarray(0, at)).split('\n').length;
    const byte = body[at] ?? 0;
    return {
      ok: false,
      message: `${what} is not UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')} on line ${line}; it is probably Latin-1 or Windows-1252). ${SAVE_AS_UTF8}`,
    };
  }
}
