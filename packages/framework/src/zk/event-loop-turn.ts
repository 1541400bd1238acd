// When the continuation of a settled reply has surely run: once the turn of the event loop
// that settled it is over. Every macrotask of a turn (each socket read of the poll phase)
// drains the microtask queue before the next one starts, so by the turn's check phase every
// continuation queued by a reply of that turn has run. One setImmediate per turn marks that
// for every connection of the process, instead of one per socket read that settled a reply.

let turn = 0;
let ending = false;

function endTurn(): void {
  turn++;
  ending = false;
}

/** The number of the turn in progress; it ends at the event loop's next check phase. */
export function currentTurn(): number {
  if (!ending) {
    ending = true;
    setImmediate(endTurn);
  }
  return turn;
}

/** True while the turn numbered `stamp` (from {@link currentTurn}) is still in progress. */
export function isCurrentTurn(stamp: number): boolean {
  return ending && stamp === turn;
}
