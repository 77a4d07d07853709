/**
 * Waiting for a writable stream to take more: its 'drain', or its end. A library caller's
 * stream may be destroyed while the filter waits (a client that went away, a consumer that
 * closed it): 'drain' never comes then, and a wait for it alone never ends.
 */
import type { Writable } from 'node:stream';

/**
 * Resolves true at 'drain', false when the stream is destroyed or closed (now or later: its
 * reader went away, nothing more is wanted); rejects with the error it was destroyed with.
 */
export function drained(stream: Writable): Promise<boolean> {
  if (stream.destroyed || stream.writableEnded) return stream.errored ? Promise.reject(stream.errored) : Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const settle = (done: () => void): void => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onError);
      done();
    };
    const onDrain = (): void => settle(() => resolve(true));
    const onClose = (): void => settle(() => (stream.errored ? reject(stream.errored) : resolve(false)));
    const onError = (error: Error): void => settle(() => reject(error));
    stream.on('drain', onDrain);
    stream.on('close', onClose);
    stream.on('error', onError);
  });
}
