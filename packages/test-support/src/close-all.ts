// Teardown for tests that open several clients or recipes: one failed close must not hide the
// test's own failure or leave the others open.

/** Closes everything in `closables` at once, ignoring failures. */
export async function closeAll(closables: readonly { close(): Promise<unknown> }[]): Promise<void> {
  await Promise.all(closables.map((closable) => closable.close().catch(() => undefined)));
}
