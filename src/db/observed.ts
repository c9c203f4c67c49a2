// Statements seen as they run, for metrics (their time) and traces (a span each): a Kysely dialect whose
// driver hands out connections that tell an observer when each statement starts and ends. Below Kysely's
// own query runner, so it sees every statement of both dialects alike: queries, BEGIN and COMMIT, the
// final statements sent with a COMMIT. Only when metrics or tracing is on; otherwise openDatabase builds
// the plain dialect and a statement costs nothing more. (On PostgreSQL, OpenTelemetry's pg
// instrumentation would need pg patched before it is imported, which an ES module cannot have without a
// loader hook; better-sqlite3 has none at all.)
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';

/** What a statement is, in words that hold no value of it: its operation (select, insert, begin, ...). */
export type StatementKind = string;

export interface QueryObserver {
  /** A statement starts; the answer is called once when it has ended, with its error if it failed. */
  start(kind: StatementKind, query: CompiledQuery): (error?: unknown) => void;
}

const NODE_KINDS: Record<string, StatementKind> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  MergeQueryNode: 'merge',
};

const COMMANDS = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'pragma', 'set', 'listen', 'notify']);

/** The operation of a statement: from Kysely's tree, else the first word of a raw statement's text. */
export function statementKind(query: CompiledQuery): StatementKind {
  const known = NODE_KINDS[query.query.kind];
  if (known) return known;
  const word = /^\s*([A-Za-z]+)/.exec(query.sql)?.[1]?.toLowerCase() ?? '';
  return COMMANDS.has(word) ? word : 'other';
}

export function observeDialect(dialect: Dialect, observer: QueryObserver): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new ObservedDriver(dialect.createDriver(), observer),
  };
}

class ObservedDriver implements Driver {
  /** One wrapper per connection, so that Kysely gets the same object back for the same connection. */
  readonly #wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #inner = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly observer: QueryObserver,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    let wrapper = this.#wrappers.get(connection);
    if (!wrapper) {
      wrapper = observedConnection(connection, this.observer);
      this.#wrappers.set(connection, wrapper);
      this.#inner.set(wrapper, connection);
    }
    return wrapper;
  }

  #unwrap(connection: DatabaseConnection): DatabaseConnection {
    return this.#inner.get(connection) ?? connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(this.#unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(this.#unwrap(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(this.#unwrap(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.#unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}

function observedConnection(connection: DatabaseConnection, observer: QueryObserver): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const end = observer.start(statementKind(query), query);
      try {
        const result = await connection.executeQuery<R>(query);
        end();
        return result;
      } catch (error) {
        end(error);
        throw error;
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}
