import type { BedrockRuntimeClient, ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import type { RouterError } from '../../src/errors.js';
import { truncatedStream } from '../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import { announceSend } from './send-hook.js';
import { converseInput, usesJsonTool } from './converse-request.js';
import type { BedrockSdk } from './load-sdk.js';
import { reasoningParts } from './reasoning-parts.js';
import { ConverseBlockTracker } from './stream-blocks.js';
import { converseFinishReason, converseUsage } from './usage.js';

export interface BedrockStreamContext {
  sdk: BedrockSdk;
  client: BedrockRuntimeClient;
  map: (err: unknown) => RouterError;
  where: { provider: string; model: string };
  httpOptions: (options: ProviderCallOptions) => { abortSignal?: AbortSignal; requestTimeout?: number };
}

/**
 * ConverseStream through the SDK, which decodes the binary event stream and throws the exception
 * frames (`throttlingException`, `modelStreamErrorException`, ...) as errors while iterating:
 * `messageStart`, content-block starts, deltas and stops, `messageStop` with the stop reason, then
 * `metadata` with the usage. The answer finishes at `metadata` (or at the end of the body after a
 * `messageStop`, its usage then unknown); a body that ends before `messageStop` is cut short.
 */
export async function* streamBedrock(ctx: BedrockStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const input = converseInput(request, ctx.where.provider);
  let events: AsyncIterable<ConverseStreamOutput>;
  let requestId: string | undefined;
  try {
    const out = await ctx.client.send(announceSend(new ctx.sdk.client.ConverseStreamCommand(input), options), ctx.httpOptions(options));
    if (!out.stream) throw new Error('ConverseStream answered without a stream');
    events = out.stream;
    requestId = out.$metadata.requestId;
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', ...(requestId ? { requestId } : {}) };

  const jsonTool = usesJsonTool(request);
  const blocks = new ConverseBlockTracker(jsonTool);
  let stopReason: string | undefined;
  let stopped = false;
  const finish = (reported?: Parameters<typeof converseUsage>[0]): ProviderStreamEvent => {
    const replay = blocks.reasoningBlocks();
    const providerParts = replay ? reasoningParts(replay) : undefined;
    const usage = converseUsage(reported);
    return {
      type: 'finish',
      finishReason: converseFinishReason(stopReason, blocks.toolCalls > 0, jsonTool),
      ...(usage ? { usage } : {}),
      ...(providerParts ? { providerParts } : {}),
    };
  };
  try {
    for await (const event of events) {
      if (event.contentBlockStart) yield* blocks.start(event.contentBlockStart);
      else if (event.contentBlockDelta) yield* blocks.delta(event.contentBlockDelta);
      else if (event.contentBlockStop) yield* blocks.stop(event.contentBlockStop.contentBlockIndex ?? 0);
      else if (event.messageStop) {
        stopReason = event.messageStop.stopReason;
        stopped = true;
      } else if (event.metadata && stopped) {
        yield finish(event.metadata.usage);
        return;
      }
      // messageStart (the role), and event types Bedrock may add later, say nothing to the caller.
    }
  } catch (err) {
    throw ctx.map(err);
  }
  if (stopped) {
    yield finish();
    return;
  }
  throw truncatedStream(ctx.where, 'messageStop');
}
