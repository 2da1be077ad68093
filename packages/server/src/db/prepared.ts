import type { Compilable, CompiledQuery, QueryResult, Transaction } from 'kysely';
import { atOnce } from './at-once';
import type { Database, Db } from './types';

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter: the argument it takes, or -1 for a constant of the query. */
  slots: number[];
}

/**
 * The name of each prepared query's SQL text. On PostgreSQL a statement sent by name is parsed once
 * per connection, and its plan is kept once PostgreSQL finds a generic one as good as those it makes
 * for each call's values: planning a query that reads across chats costs several times running it.
 */
const names = new Map<string, string>();

/** The statement name of a prepared query's SQL text; undefined for any other SQL. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * A compiled query run by name on PostgreSQL like a prepared one: for SQL written as text, whose
 * few forms are run often.
 */
export function byName<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  if (!names.has(query.sql)) names.set(query.sql, `sparrow_${names.size + 1}`);
  return query;
}

/** A stand-in for an argument while a prepared query is built; found again among the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built and compiled once, then run with new values. Building and compiling a query costs
 * more than running a small one on SQLite, and sending a message runs several: the queries of that
 * path are prepared. `build` gets stand-ins for its arguments and must use them as plain values
 * (compared, inserted, set), never look inside them; the first run builds the query.
 */
export class Prepared<A extends unknown[], R> {
  /** The compiled query per SQL dialect (a database and its transactions share one adapter). */
  private readonly byDialect = new WeakMap<object, Compiled<R>>();

  constructor(private readonly build: (db: Db, ...args: A) => Compilable<R>) {}

  private compile(db: Db | Transaction<Database>, arity: number): Compiled<R> {
    const adapter = db.getExecutor().adapter;
    let done = this.byDialect.get(adapter);
    if (done) return done;
    const stand = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A;
    const query = this.build(db as Db, ...stand).compile();
    const slots = query.parameters.map((p) => (p instanceof Slot ? p.index : -1));
    const used = new Set(slots.filter((i) => i >= 0));
    if (used.size !== arity) throw new Error(`a prepared query uses ${used.size} of its ${arity} arguments`);
    byName(query);
    this.byDialect.set(adapter, (done = { query, slots }));
    return done;
  }

  /** The query with these arguments, ready to run (or to yield from a unit of `Work`). */
  bind(db: Db | Transaction<Database>, ...args: A): CompiledQuery<R> {
    const { query, slots } = this.compile(db, args.length);
    const parameters = slots.map((slot, i) => (slot >= 0 ? args[slot] : query.parameters[i]));
    return { ...query, parameters };
  }

  /**
   * Runs the query with these arguments, on the database or within a transaction: at once on a
   * free SQLite connection (see `atOnce`), else through Kysely.
   */
  run(db: Db | Transaction<Database>, ...args: A): Promise<QueryResult<R>> {
    const query = this.bind(db, ...args);
    const link = atOnce(db);
    if (!link) return db.executeQuery<R>(query);
    try {
      return Promise.resolve(link.execute(query));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async all(db: Db | Transaction<Database>, ...args: A): Promise<R[]> {
    return (await this.run(db, ...args)).rows;
  }

  async first(db: Db | Transaction<Database>, ...args: A): Promise<R | undefined> {
    return (await this.run(db, ...args)).rows[0];
  }
}
