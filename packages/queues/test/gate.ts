// Test helper: a gate a consumer waits at until the test opens it, and a signal that it got there.

export interface Gate {
  /** Resolves once the consumer reached the gate. */
  readonly reached: Promise<void>;
  /** What the consumer awaits: marks the gate reached, resolves once opened. */
  readonly pass: () => Promise<void>;
  /** Lets the consumer through. */
  readonly open: () => void;
}

export function gate(): Gate {
  let reach = (): void => undefined;
  let open = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    reached,
    pass: () => {
      reach();
      return opened;
    },
    open,
  };
}
