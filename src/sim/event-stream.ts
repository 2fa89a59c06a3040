// The AWS event stream framing (application/vnd.amazon.eventstream), as the SDKs decode it
// (@smithy/core event-streams, splitMessage and HeaderMarshaller): a prelude of total length and
// headers length (big-endian uint32) with its own CRC32, the headers, the payload, and a CRC32 of
// everything before it. Headers here are all strings (type 7).

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, zlib's), which the event stream's prelude and message checksums use. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const STRING_TYPE = 7;

/** One event-stream message: string headers (`:event-type`, `:message-type`, ...) and a payload. */
export function encodeEventMessage(headers: Record<string, string>, payload: Uint8Array | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const encoded = Object.entries(headers).map(([name, value]) => {
    const n = Buffer.from(name, 'utf8');
    const v = Buffer.from(value, 'utf8');
    const out = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
    out.writeUInt8(n.length, 0);
    n.copy(out, 1);
    out.writeUInt8(STRING_TYPE, 1 + n.length);
    out.writeUInt16BE(v.length, 2 + n.length);
    v.copy(out, 4 + n.length);
    return out;
  });
  const headerBytes = Buffer.concat(encoded);
  const total = 12 + headerBytes.length + body.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message, 0, 8), 8);
  headerBytes.copy(message, 12);
  body.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message, 0, total - 4), total - 4);
  return message;
}

/** An `event` message of ConverseStream: `:event-type` names the union member, the payload is its JSON. */
export function eventFrame(eventType: string, payload: unknown): Buffer {
  return encodeEventMessage({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify(payload));
}

/** An `exception` message: `:exception-type` names the stream's error member (`throttlingException`, ...). */
export function exceptionFrame(exceptionType: string, message: string): Buffer {
  return encodeEventMessage({ ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify({ message }));
}

/** Splits a buffer of whole messages back into (headers, payload) pairs: for tests and the simulator's own checks. */
export function decodeEventMessages(buffer: Uint8Array): Array<{ headers: Record<string, string>; payload: string }> {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const out: Array<{ headers: Record<string, string>; payload: string }> = [];
  let at = 0;
  while (at + 16 <= bytes.length) {
    const total = bytes.readUInt32BE(at);
    const headersLength = bytes.readUInt32BE(at + 4);
    if (crc32(bytes, at, at + 8) !== bytes.readUInt32BE(at + 8)) throw new Error('event stream: prelude checksum mismatch');
    if (crc32(bytes, at, at + total - 4) !== bytes.readUInt32BE(at + total - 4)) throw new Error('event stream: message checksum mismatch');
    const headers: Record<string, string> = {};
    let h = at + 12;
    while (h < at + 12 + headersLength) {
      const nameLength = bytes.readUInt8(h);
      const name = bytes.toString('utf8', h + 1, h + 1 + nameLength);
      const valueLength = bytes.readUInt16BE(h + 2 + nameLength);
      headers[name] = bytes.toString('utf8', h + 4 + nameLength, h + 4 + nameLength + valueLength);
      h += 4 + nameLength + valueLength;
    }
    out.push({ headers, payload: bytes.toString('utf8', at + 12 + headersLength, at + total - 4) });
    at += total;
  }
  return out;
}
