/**
 * Stack frames from a recipe call to the socket: `node bench/dist/src/request-frames.js`.
 *
 * Starts a TestingServer, warms an `InterProcessMutex` up, then records the stack (async frames
 * included) at `net.Socket.prototype.write` during one `acquire()` and one `client.setData()`
 * (reads are batched per tick, so their writes start on a fresh stack),
 * and prints each frame count with the frames themselves: everything from the call to the write,
 * Node's own frames (`node:`) counted apart.
 */
import net from 'node:net';
import { createFramework, silentLogger } from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { TestingServer } from '@zkrecipes/testing';

Error.stackTraceLimit = Infinity;

/** The stacks `socket.write` was called with while `action` ran. */
async function stacksOf(action: () => Promise<unknown>): Promise<string[][]> {
  const stacks: string[][] = [];
  const prototype = net.Socket.prototype;
  const write = Reflect.get(prototype, 'write') as (...args: unknown[]) => boolean;
  Reflect.set(prototype, 'write', function (this: net.Socket, ...args: unknown[]) {
    const lines = (new Error().stack ?? '').split('\n').slice(2);
    stacks.push(lines.map((line) => line.trim()));
    return write.apply(this, args);
  });
  try {
    await action();
  } finally {
    Reflect.set(prototype, 'write', write);
  }
  return stacks;
}

function report(name: string, stacks: string[][]): void {
  // The request's own write is the one whose stack reaches back to the call (`name`'s frame).
  const stack = stacks.find((lines) => lines.some((line) => line.includes(name))) ?? stacks[0];
  if (!stack) {
    process.stdout.write(`${name}: no write\n`);
    return;
  }
  const end = stack.findIndex((line) => line.includes(name));
  const frames = stack.slice(0, end + 1);
  const ours = frames.filter((line) => !line.includes('node:'));
  process.stdout.write(
    `${name}: ${frames.length} frames to socket.write (${ours.length} outside node:)\n` +
      frames.map((line) => `    ${line}\n`).join(''),
  );
}

const server = await TestingServer.start();
const client = createFramework({ connectString: server.connectString, logger: silentLogger });
try {
  await client.start();
  await client.create('/frames', { data: Buffer.from('x') });
  const mutex = new InterProcessMutex(client, '/frames-lock');
  for (let i = 0; i < 200; i++) {
    await mutex.acquire();
    await mutex.release();
    await client.getData('/frames');
  }
  report('InterProcessMutex.acquire', await stacksOf(() => mutex.acquire()));
  await mutex.release();
  report(
    'FrameworkClient.setData',
    await stacksOf(() => client.setData('/frames', Buffer.from('y'))),
  );
} finally {
  await client.close();
  await server.close();
}
