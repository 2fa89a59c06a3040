// The SSE framing every pass-through stream reads (OpenAI's Chat Completions and Responses, Anthropic's
// Messages): whole events cut out of the bytes as they came, so each can be relayed unchanged.

/** The index just past the blank line that ends the SSE event starting at `from`, or -1 while it is incomplete. */
export function eventEnd(text: string, from: number): number {
  const lf = text.indexOf('\n\n', from);
  const crlf = text.indexOf('\r\n\r\n', from);
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf + 4;
  return lf < 0 ? -1 : lf + 2;
}

/** Where the next whole SSE event from `from` ends, or -1; at the body's end (`final`) what is left counts as one. */
export function nextEventEnd(text: string, from: number, final: boolean): number {
  const end = eventEnd(text, from);
  return end < 0 && final && text.slice(from).trim() !== '' ? text.length : end;
}

/** The `data` of one SSE event (its `data:` lines joined), or undefined for a comment or an event without data. */
export function eventData(event: string): string | undefined {
  // OpenAI's own shape, one `data: ` line and the blank line: no split.
  if (event.startsWith('data: ') && event.indexOf('\n') === event.length - 2) return event.slice(6, -2);
  // Anthropic's, one `event: ` line, one `data: ` line and the blank line: no split either.
  if (event.startsWith('event: ')) {
    const at = event.indexOf('\n');
    if (event.startsWith('data: ', at + 1) && event.indexOf('\n', at + 1) === event.length - 2) return event.slice(at + 7, -2);
  }
  let data: string | undefined;
  for (const line of event.split(/\r\n|\n|\r/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}
