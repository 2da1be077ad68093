import type SQLite from 'better-sqlite3';
import type { CompiledQuery, QueryResult, Transaction } from 'kysely';
import type { Database, Db } from './types';

/**
 * Runs statements on a SQLite connection at once, in the caller's turn, instead of through
 * Kysely's connection queue: a query there passes through a mutex and half a dozen promise hops,
 * which on SQLite cost more than a small statement itself. Safe only while no transaction is open
 * on the connection, since a statement run then would join it; `atOnce` answers this link only
 * then. A transaction of this link's own runs synchronously from BEGIN to COMMIT, so no other
 * caller can come between.
 */
export class SqliteAtOnce {
  private inOwnTransaction = false;
  private readonly transaction: (work: () => unknown) => unknown;
  private readonly statement: (sql: string) => Statement;

  constructor(
    private readonly sqlite: SQLite.Database,
    keep: number,
    /** Told how long each statement took, ms (the database time metric). */
    private readonly onQuery?: (ms: number) => void,
  ) {
    this.transaction = sqlite.transaction((work: () => unknown) => work());
    this.statement = keepPrepared(keep, (sql) => prepareStatement(sqlite, sql));
  }

  /** No transaction of another caller is open on the connection. */
  get free(): boolean {
    return this.inOwnTransaction || !this.sqlite.inTransaction;
  }

  /** Runs one statement, answering as Kysely's SQLite driver does. */
  execute<R>(query: Pick<CompiledQuery<R>, 'sql' | 'parameters'>): QueryResult<R> {
    if (!this.onQuery) return this.run(query);
    const started = performance.now();
    try {
      return this.run(query);
    } finally {
      this.onQuery(performance.now() - started);
    }
  }

  private run<R>({ sql, parameters }: Pick<CompiledQuery<R>, 'sql' | 'parameters'>): QueryResult<R> {
    const statement = this.statement(sql);
    if (statement.row) {
      const values = statement.stmt.all(parameters) as unknown[][];
      // SQLite prepares a statement again after the schema changed (another process migrated):
      // its columns are then named anew.
      if (values.length && values[0]!.length !== statement.width) Object.assign(statement, rowMaker(statement.stmt));
      return { rows: values.map(statement.row) as R[] };
    }
    const { changes, lastInsertRowid } = statement.stmt.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /** Runs `work` between BEGIN and COMMIT without yielding; an exception rolls it back. */
  atomically<T>(work: () => T): T {
    const outer = this.inOwnTransaction;
    this.inOwnTransaction = true;
    try {
      return this.transaction(work) as T;
    } finally {
      this.inOwnTransaction = outer;
    }
  }
}

/**
 * Keeps the `keep` most recently used prepared statements by their SQL: on SQLite preparing costs
 * as much as running a small query. `usable` says whether a kept one can serve now.
 */
export function keepPrepared<S>(
  keep: number,
  prepare: (sql: string) => S,
  usable: (kept: S) => boolean = () => true,
): (sql: string) => S {
  const kept = new Map<string, S>();
  return (sql) => {
    let statement = kept.get(sql);
    if (statement !== undefined) kept.delete(sql);
    else if (kept.size >= keep) kept.delete(kept.keys().next().value!);
    if (statement === undefined || !usable(statement)) statement = prepare(sql);
    kept.set(sql, statement);
    return statement;
  };
}

/** A prepared statement; one that answers rows reads them as arrays and makes each an object with `row`. */
type Statement =
  | { stmt: SQLite.Statement; row?: undefined }
  | {
      stmt: SQLite.Statement;
      row: (values: unknown[]) => unknown;
      /** The columns `row` names. */
      width: number;
    };

function prepareStatement(sqlite: SQLite.Database, sql: string): Statement {
  const stmt = sqlite.prepare(sql);
  if (!stmt.reader) return { stmt };
  stmt.raw(true);
  return { stmt, ...rowMaker(stmt) };
}

/**
 * Rows come back as arrays, made into objects by a function that names the statement's columns
 * in an object literal: better-sqlite3 builds each row object one property at a time through
 * V8's API, which costs more than the statement on the small reads of a message send. A later
 * column of the same name wins, as in better-sqlite3's rows.
 */
function rowMaker(stmt: SQLite.Statement): { row: (values: unknown[]) => unknown; width: number } {
  const names = stmt.columns().map((c) => c.name);
  const fields = names.map((name, i) =>
    // A computed key makes `__proto__` an own property, as better-sqlite3 does, not the prototype.
    name === '__proto__' ? `["__proto__"]: values[${i}]` : `${JSON.stringify(name)}: values[${i}]`,
  );
  const row = new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
  return { row, width: names.length };
}

const links = new WeakMap<object, SqliteAtOnce>();

/** Makes `db` (a Kysely instance over `link`'s connection) answer `atOnce`. */
export function linkAtOnce(db: Db, link: SqliteAtOnce): void {
  links.set(db, link);
}

/**
 * The SQLite connection behind `db`, when a statement can run on it at once: `db` is a database,
 * not a Kysely transaction, and no transaction of another caller is open. Undefined on PostgreSQL.
 */
export function atOnce(db: Db | Transaction<Database>): SqliteAtOnce | undefined {
  const link = links.get(db);
  return link?.free ? link : undefined;
}

/** A unit of work written once: the queries it runs, yielded in order, each given its result back. */
export type Work<T> = Generator<CompiledQuery, T, QueryResult<unknown>>;

/**
 * Runs `work` in one transaction: on a free SQLite connection synchronously (see SqliteAtOnce),
 * else in a Kysely transaction.
 */
export async function runAtomically<T>(db: Db, work: () => Work<T>): Promise<T> {
  const link = atOnce(db);
  if (link) {
    return link.atomically(() => {
      const steps = work();
      let step = steps.next(undefined as never);
      while (!step.done) step = resume(steps, attempt(link, step.value));
      return step.value;
    });
  }
  return db.transaction().execute(async (trx) => {
    const steps = work();
    let step = steps.next(undefined as never);
    while (!step.done) step = resume(steps, await settle(trx.executeQuery(step.value)));
    return step.value;
  });
}

/** How a query a unit of work yielded turned out. */
type Outcome = { result: QueryResult<unknown> } | { error: unknown };

const attempt = (link: SqliteAtOnce, query: CompiledQuery): Outcome => {
  try {
    return { result: link.execute(query) };
  } catch (error) {
    return { error };
  }
};

const settle = (running: Promise<QueryResult<unknown>>): Promise<Outcome> =>
  running.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );

/** Gives a unit of work its query's result, or throws the query's error where the work yielded it. */
function resume<T>(steps: Work<T>, outcome: Outcome) {
  return 'error' in outcome ? steps.throw(outcome.error) : steps.next(outcome.result);
}
