import type { ServerResponse } from 'node:http';

/**
 * Writes server-sent events to a raw response, waiting for `drain` when the socket's buffer is full
 * (a slow client holds its own stream back, never the gateway's memory). Every write after the
 * client went away is dropped.
 */
export class SseWriter {
  constructor(private readonly res: ServerResponse) {}

  /** True once the client closed the connection. */
  get gone(): boolean {
    return this.res.destroyed;
  }

  /** Writes `data: <json>` events, one per value, in one write. */
  events(values: readonly unknown[]): Promise<void> | undefined {
    if (values.length === 0) return undefined;
    let text = '';
    for (const v of values) text += `data: ${JSON.stringify(v)}\n\n`;
    return this.write(text);
  }

  /** Writes named events, `event: <type>` and `data: <json>` (the Anthropic Messages framing), in one write. */
  named(values: ReadonlyArray<{ type: string }>): Promise<void> | undefined {
    if (values.length === 0) return undefined;
    let text = '';
    for (const v of values) text += `event: ${v.type}\ndata: ${JSON.stringify(v)}\n\n`;
    return this.write(text);
  }

  /** Writes bytes as they are (a pass-through stream's upstream events). */
  bytes(text: string): Promise<void> | undefined {
    return this.write(text);
  }

  /** Writes the stream's terminator and ends the response. */
  done(): void {
    if (!this.gone) this.res.end('data: [DONE]\n\n');
  }

  /** Ends the response without a terminator (after an error frame). */
  end(): void {
    if (!this.gone) this.res.end();
  }

  private write(text: string): Promise<void> | undefined {
    if (this.gone || this.res.write(text)) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}
