// A real database whose statements are written down as they are sent: `recording(db, sent)` answers
// the same Db, and every statement it or one of its transactions sends (query or exec) is added to
// `sent` first. For tests that must show a request reached the database, or did not.
import type { Db, Queryable } from '../../src/db/types.ts';

const SENDS = new Set<string | symbol>(['query', 'exec']);

function bound(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

function recordingSends<T extends Queryable>(on: T, sent: string[], extra: (target: T, prop: string | symbol) => unknown): T {
  return new Proxy(on, {
    get: (target, prop) => {
      if (SENDS.has(prop))
        return (text: string, ...rest: unknown[]) => {
          sent.push(text);
          return (Reflect.get(target, prop) as (...args: unknown[]) => unknown).call(target, text, ...rest);
        };
      return extra(target, prop);
    },
  });
}

export function recording(db: Db, sent: string[]): Db {
  return recordingSends(db, sent, (target, prop) =>
    prop === 'transaction'
      ? <T>(fn: (tx: Queryable) => Promise<T>, ...rest: unknown[]) =>
          (target.transaction as (...args: unknown[]) => Promise<T>)((tx: Queryable) => fn(recordingSends(tx, sent, bound)), ...rest)
      : bound(target, prop),
  );
}
