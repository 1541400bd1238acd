// Aligned plain-text tables: no box drawing, so output stays greppable and pastes cleanly
// into a ticket; widths follow the widest cell of each column.

/** A column: its header and how to read a row's cell. */
export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => string;
  /** Right-align (numbers). Default: left. */
  readonly right?: boolean;
}

/** The longest a cell may be before it is cut with an ellipsis (payloads can be large). */
export const MAX_CELL = 60;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > MAX_CELL ? `${oneLine.slice(0, MAX_CELL - 1)}…` : oneLine;
}

/** Renders rows as an aligned table with a header line; `(none)` for no rows. */
export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  if (rows.length === 0) return '  (none)';
  const cells = rows.map((row) => columns.map((column) => clip(column.cell(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index]!.length)),
  );
  const line = (values: readonly string[]): string =>
    '  ' +
    values
      .map((value, index) =>
        columns[index]!.right ? value.padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)].join('\n');
}

/** A duration for people: `850ms`, `12.4s`, `3m05s`, `2h14m`, `3d04h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${pad(Math.floor(s / 60) % 60)}m`;
  return `${Math.floor(s / 86_400)}d${pad(Math.floor(s / 3600) % 24)}h`;
}
