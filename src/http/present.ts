// The one field picker of the API: a record's answer holds the fields asked for (`fields=`), in the
// record type's order, and leaves out those the record does not have (undefined).
export function pickFields<F extends string>(values: Record<F, unknown>, fields: readonly F[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (values[field] !== undefined) out[field] = values[field];
  return out;
}
