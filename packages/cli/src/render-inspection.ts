// The human view of an inspection: a headline with the answer to "who holds it / who leads /
// how deep", then the nodes as an aligned table. The `--json` view is the Inspection itself.
import { formatDuration, formatTable, type Column } from './format-table.js';
import type { Inspection, TreeEntry } from './inspection.js';
import type { DataView, NodeView } from './node-view.js';

// Nodes made by ZooKeeper itself (`/`, `/zookeeper`) have ctime 0: no meaningful age.
const age = (view: NodeView): string =>
  view.createdAt.startsWith('1970-01-01T00:00:00') ? '-' : formatDuration(view.ageMs);

const data = (view: DataView): string =>
  view.encoding === 'utf8' ? view.data : `base64:${view.data}`;

function nodeColumns<Row extends NodeView>(first: Column<Row>[] = []): Column<Row>[] {
  return [
    ...first,
    { header: 'NODE', cell: (row) => row.name },
    { header: 'SESSION', cell: (row) => row.sessionId },
    { header: 'TOKEN', cell: (row) => row.fencingToken, right: true },
    { header: 'AGE', cell: age, right: true },
    { header: 'DATA', cell: data },
  ];
}

/** A table of nodes in order, with a ROLE column computed from each row's position. */
function roleTable(rows: readonly NodeView[], role: (index: number) => string): string {
  const withRole = rows.map((row, index) => ({ ...row, role: role(index) }));
  return formatTable(withRole, nodeColumns([{ header: 'ROLE', cell: (row) => row.role }]));
}

const treeColumns: Column<TreeEntry>[] = [
  { header: 'NAME', cell: (row) => row.name },
  { header: 'CHILDREN', cell: (row) => String(row.numChildren), right: true },
  { header: 'BYTES', cell: (row) => String(row.dataLength), right: true },
  { header: 'EPHEMERAL OWNER', cell: (row) => (row.sessionId === '0x0' ? '-' : row.sessionId) },
  { header: 'AGE', cell: age, right: true },
  { header: 'DATA', cell: data },
];

function body(inspection: Inspection): string[] {
  switch (inspection.kind) {
    case 'mutex': {
      const { holder } = inspection;
      return [
        holder
          ? `held by session ${holder.sessionId} (token ${holder.fencingToken}, at most ${formatDuration(holder.ageMs)}); ${inspection.waiters.length} waiting`
          : 'free: nobody holds or waits',
        roleTable([...(holder ? [holder] : []), ...inspection.waiters], (i) =>
          i === 0 ? 'holder' : `waiter ${i}`,
        ),
      ];
    }
    case 'read-write-lock':
      return [
        `${inspection.mode === 'free' ? 'free' : `${inspection.mode}-locked by ${inspection.holders.length}`}; ${inspection.waiters.length} waiting`,
        formatTable(
          [...inspection.holders, ...inspection.waiters],
          nodeColumns([
            {
              header: 'ROLE',
              cell: (row) => (inspection.holders.includes(row) ? 'holder' : 'waiter'),
            },
            { header: 'LOCK', cell: (row) => row.lock },
          ]),
        ),
      ];
    case 'semaphore':
      return [
        `${inspection.leases.length} lease node(s) (the first maxLeases hold); ${inspection.acquiring.length} process(es) inside acquire`,
        'leases:',
        roleTable(inspection.leases, (i) => `lease ${i + 1}`),
        'acquiring:',
        roleTable(inspection.acquiring, (i) => (i === 0 ? 'acquiring' : `queued ${i}`)),
      ];
    case 'leader-latch':
      return [
        inspection.leader
          ? `leader: ${inspection.leader.data || inspection.leader.name} (session ${inspection.leader.sessionId}); ${inspection.participants.length} participant(s)`
          : 'no participants: no leader',
        roleTable(inspection.participants, (i) => (i === 0 ? 'leader' : `follower ${i}`)),
      ];
    case 'queue': {
      const { oldest } = inspection;
      return [
        `depth ${inspection.depth}, ${inspection.bytes} bytes` +
          (oldest ? `, oldest ${formatDuration(oldest.ageMs)} old` : ', empty'),
        ...(oldest ? [`head: ${oldest.name} (${oldest.items} item(s)) ${data(oldest)}`] : []),
      ];
    }
    case 'double-barrier':
      return [
        `${inspection.members.length} member(s) entered; ${inspection.ready ? 'ready (the barrier filled)' : 'not ready yet'}`,
        roleTable(inspection.members, () => 'member'),
      ];
    case 'group':
      return [
        `${inspection.members.length} member(s)`,
        formatTable(inspection.members, nodeColumns([{ header: 'ID', cell: (row) => row.id }])),
      ];
    case 'empty':
      return inspection.node === undefined
        ? [
            `no node at ${inspection.path}: free, nobody holds, waits or takes part (a recipe creates its path when first used, and ZooKeeper removes an emptied container path)`,
          ]
        : [
            'free: no lock, election, queue, barrier or group nodes under it; the node:',
            formatTable([inspection.node], treeColumns),
          ];
    case 'tree':
      return [
        'no recipe layout recognised; the node and its children:',
        formatTable([inspection.node], treeColumns),
        'children:',
        formatTable(inspection.children, treeColumns),
      ];
  }
}

/** Renders an inspection for people: headline, then aligned tables. */
export function renderInspection(inspection: Inspection): string {
  const lines = [`${inspection.path}: ${inspection.recipe}`, ...body(inspection)];
  if (inspection.ignored.length > 0) {
    lines.push(`ignored (not part of the layout): ${inspection.ignored.join(', ')}`);
  }
  return lines.join('\n');
}
