// Statements of one transaction sent together. A transaction's statements run one after another on
// its one connection, in the order they were issued; issued without awaiting each other, they
// travel together (postgres.js pipelines them; PGlite queues them), so a transaction pays one round
// trip for the lot instead of one each. Issue order is call order: each function passed here must
// issue its statement before its first await, which lets lock order be kept by argument order.
//
// Every statement is let finish before this answers, so none is still running when the transaction
// ends; the first failure in issue order is the one thrown, the error they would have given one by
// one (though the statements after it have run too, to be rolled back with the transaction).
// test/circulation/lock-order.test.ts checks that circulation sends its locks in their order.

type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

export async function together<T extends readonly unknown[]>(pending: readonly [...T]): Promise<Settled<T>> {
  const results = await Promise.allSettled(pending);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as Settled<T>;
}
