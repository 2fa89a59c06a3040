import type { ServerResponse } from 'node:http';

/**
 * Writes named server-sent events (`event: <type>` then `data: <json>`), as the Responses API frames
 * them; no `[DONE]` ends the stream (OpenAI sends none there). A full socket buffer waits for
 * `drain`, so a slow client holds back only its own stream; writes after the client left are dropped.
 */
export class EventWriter {
  constructor(private readonly res: ServerResponse) {}

  /** True once the client closed the connection. */
  get gone(): boolean {
    return this.res.destroyed;
  }

  /** Writes the events, in one write. */
  events(values: ReadonlyArray<{ type: string }>): Promise<void> | undefined {
    if (values.length === 0 || this.gone) return undefined;
    let text = '';
    for (const v of values) text += `event: ${v.type}\ndata: ${JSON.stringify(v)}\n\n`;
    if (this.res.write(text)) return undefined;
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

  end(): void {
    if (!this.gone) this.res.end();
  }
}
