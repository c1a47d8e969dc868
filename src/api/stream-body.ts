/** Bytes a streamed body may hold unread: a small export completes (and frees its connection) at once. */
export const STREAM_BUFFER_BYTES = 1024 * 1024;
/** How long a streamed body's producer waits on a reader that reads nothing before it gives up. */
export const STREAM_STALL_MS = 30_000;

/**
 * A streamed response body written by `produce`: answered only once the first chunk is ready, so an
 * error before it (the database down) is the usual error envelope, not a 200 cut short. Up to
 * STREAM_BUFFER_BYTES wait unread; past that each write waits for the reader, and one that waits
 * STREAM_STALL_MS fails the producer (its transaction ends) and cuts the body short. A failure after
 * the first chunk can only cut the body short: `onLateError` is told.
 */
export async function streamBody(
  produce: (write: (chunk: string) => Promise<void>) => Promise<unknown>,
  onLateError: (err: Error) => void,
): Promise<ReadableStream<Uint8Array>> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(
    undefined,
    undefined,
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BUFFER_BYTES }),
  );
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let started: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    started = resolve;
  });
  const write = async (chunk: string) => {
    started();
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the reader read nothing for ${STREAM_STALL_MS} ms`)),
        STREAM_STALL_MS,
      );
    });
    try {
      await Promise.race([writer.ready, stalled]);
    } finally {
      clearTimeout(timer);
    }
    void writer.write(encoder.encode(chunk)).catch(() => {});
  };
  let begun = false;
  const done = produce(write).then(
    () => writer.close(),
    (err: Error) => {
      void writer.abort(err).catch(() => {});
      if (begun) onLateError(err);
      throw err;
    },
  );
  await Promise.race([first, done]);
  begun = true;
  done.catch(() => {});
  return readable;
}
