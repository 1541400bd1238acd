// How a client sends ZooKeeper requests: every request written to a socket in one tick leaves
// in one write (a create with the children read behind it is one segment, not two), instead of
// one syscall per request. The framework's facade and testing's raw client both send this way.
import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

/** Corks `socket` until the current tick's work is done (once per socket and tick). */
export function corkForThisTick(socket: Writable): void {
  if (corked.has(socket) || socket.destroyed) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
