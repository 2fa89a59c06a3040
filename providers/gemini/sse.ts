/**
 * The `data` of each event of a server-sent event stream, in order, per the WHATWG rules that matter
 * here: lines end in `\r\n`, `\n` or `\r` (Google's front end sends `\r\n`), an event ends at a blank
 * line, several `data:` lines join with `\n`, one space after the colon is dropped, and comment,
 * `event:`, `id:` and `retry:` lines carry no data. An event the stream ends inside of (no blank line
 * after it) is not yielded: it was cut, and a cut event is never a whole one.
 */
export async function* sseData(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  // A `\r` at the end of one chunk may be the first half of a `\r\n` split across two.
  let pendingCR = false;

  function* lines(text: string, final: boolean): Generator<string> {
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (c === 10 && pendingCR && i === start) {
        pendingCR = false;
        start = i + 1;
        continue;
      }
      pendingCR = false;
      yield buffer.slice(start, i);
      if (c === 13) {
        if (i + 1 < buffer.length) {
          if (buffer.charCodeAt(i + 1) === 10) i++;
        } else if (!final) pendingCR = true;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }

  function* events(line: string): Generator<string> {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
  }

  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    for (const line of lines(decoder.decode(chunk, { stream: true }), false)) yield* events(line);
  }
  for (const line of lines(decoder.decode(), true)) yield* events(line);
}
