import { performance } from 'node:perf_hooks';
import type { Observable } from 'rxjs';
import type { WatchBudget } from '../zk/watch-registry.js';
import { ConnectionState, type ConnectionStateChange } from '../state/connection-state.js';
import { ClosedError } from '../errors/zookeeper-error-classes.js';
import type { ClientTelemetry } from '../telemetry/client-telemetry.js';
import type { ConnectionHistory } from './connection-history.js';
import type { Attributes, SpanLike } from '../telemetry/otel-types.js';

/** What the connection metrics read besides the state changes. */
export interface ConnectionTelemetrySources {
  readonly changes: Observable<ConnectionStateChange>;
  readonly history: ConnectionHistory;
  readonly currentState: () => ConnectionState | undefined;
  readonly watchBudget: () => WatchBudget;
  readonly closedSignal: AbortSignal;
}

const STATES = Object.values(ConnectionState);
const STATE_ATTRIBUTES = Object.fromEntries(
  STATES.map((state) => [state, { 'zookeeper.connection.state': state }]),
) as unknown as Record<ConnectionState, Attributes>;

/**
 * The framework's connection metrics (state changes, current state, reconnects, LOST, session
 * age, watch budget, event-loop stalls) and the `zookeeper.client.reconnect` span, which runs
 * from SUSPENDED until the client is connected again (or closes). The instruments are asked for
 * as each event comes: they record from the moment the client's providers are known.
 */
export class ConnectionTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #sources: ConnectionTelemetrySources;
  #reconnect: SpanLike | undefined;

  constructor(telemetry: ClientTelemetry, sources: ConnectionTelemetrySources) {
    this.#telemetry = telemetry;
    this.#sources = sources;
    const { history } = sources;
    const unsubscribe: (() => void)[] = [
      telemetry.observe(
        'zookeeper.client.session.age',
        { description: 'Time since the current session was established', unit: 's' },
        {},
        () =>
          history.sessionStartedMs === undefined
            ? undefined
            : (performance.now() - history.sessionStartedMs) / 1000,
      ),
      telemetry.observe(
        'zookeeper.client.watch.budget.usage',
        { description: 'Bytes of watched paths a reconnect must re-send', unit: 'By' },
        {},
        () => sources.watchBudget().usedBytes,
      ),
      telemetry.observe(
        'zookeeper.client.watch.budget.limit',
        { description: 'The watch budget (watchBudgetBytes)', unit: 'By' },
        {},
        () => sources.watchBudget().budgetBytes,
      ),
      ...STATES.map((state) =>
        telemetry.observe(
          'zookeeper.client.connection.state',
          { description: '1 for the current connection state, 0 for the others', unit: '1' },
          STATE_ATTRIBUTES[state],
          () => {
            const current = sources.currentState();
            return current === undefined ? undefined : Number(current === state);
          },
        ),
      ),
    ];
    sources.changes.subscribe((change) => {
      telemetry
        .counter('zookeeper.client.connection.state_changes', {
          description: 'Connection state changes, by the state entered',
          unit: '{change}',
        })
        .add(1, STATE_ATTRIBUTES[change.state]);
      if (change.state === ConnectionState.RECONNECTED) {
        telemetry
          .counter('zookeeper.client.reconnects', {
            description: 'Connections re-established after SUSPENDED or LOST (RECONNECTED)',
            unit: '{reconnect}',
          })
          .add(1, { 'zookeeper.session.new': change.newSession });
      } else if (change.state === ConnectionState.LOST) {
        telemetry
          .counter('zookeeper.client.session.lost', {
            description: 'Sessions given up for lost (LOST)',
            unit: '{session}',
          })
          .add(1);
      }
      this.#traceReconnect(change);
    });
    sources.closedSignal.addEventListener(
      'abort',
      () => {
        for (const remove of unsubscribe) remove();
        const span = this.#reconnect;
        this.#reconnect = undefined;
        if (span !== undefined) telemetry.endSpan(span, new ClosedError());
      },
      { once: true },
    );
  }

  /** Counts an event-loop stall that made the connection suspect. */
  stalled(stallMs: number): void {
    this.#sources.history.eventLoopStalls += 1;
    this.#telemetry
      .counter('zookeeper.client.event_loop.stalls', {
        description: 'Event-loop stalls long enough to suspect the connection',
        unit: '{stall}',
      })
      .add(1);
    this.#telemetry
      .durationHistogram('zookeeper.client.event_loop.stall.duration', {
        description: 'How long the event loop was stalled',
        unit: 's',
      })
      .record(stallMs / 1000);
  }

  #traceReconnect(change: ConnectionStateChange): void {
    if (change.state === ConnectionState.SUSPENDED) {
      this.#reconnect ??= this.#telemetry.startSpan('zookeeper.client.reconnect', {
        'zookeeper.session.id': sessionIdOf(change.sessionId),
      });
    } else if (change.state === ConnectionState.LOST) {
      this.#reconnect?.addEvent('session lost');
    } else if (change.state === ConnectionState.READ_ONLY) {
      this.#reconnect?.addEvent('read-only server');
    } else if (
      change.state === ConnectionState.RECONNECTED ||
      change.state === ConnectionState.CONNECTED
    ) {
      const span = this.#reconnect;
      this.#reconnect = undefined;
      span?.setAttributes({
        'zookeeper.session.new': change.newSession,
        'zookeeper.session.id': sessionIdOf(change.sessionId),
      });
      span?.end();
    }
  }
}

/** A session id as ZooKeeper prints it (`0x` and hex), or '' before the first connection. */
export function sessionIdOf(sessionId: bigint | undefined): string {
  return sessionId === undefined ? '' : `0x${sessionId.toString(16)}`;
}
