/** Correctness checks of one scenario; a failed check turns the line into `FAIL: … | notes`. */
export class Checks {
  readonly #failures: string[] = [];

  expect(ok: boolean, failure: string): void {
    if (ok) return;
    this.#failures.push(failure);
    process.stderr.write(`[bench] !!! FAIL: ${failure}\n`);
  }

  get failed(): boolean {
    return this.#failures.length > 0;
  }

  annotate(notes: string): string {
    return this.failed ? `FAIL: ${this.#failures.join('; ')} | ${notes}` : notes;
  }
}
