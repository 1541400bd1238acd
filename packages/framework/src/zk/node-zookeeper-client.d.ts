// node-zookeeper-client is CommonJS and ships no types (`@types/node-zookeeper-client` is wrong
// in places): the adapter imports the module as unknown, and nzc-internals.ts checks the
// members it uses before anything is called on it.
declare module 'node-zookeeper-client' {
  const nzc: unknown;
  export default nzc;
}
