/** Instants as the API prints them: whole seconds, UTC. */
export function instant(date: Date): string {
  // A harvest page prints thousands; toISOString and a slice cost three times these parts.
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return `${date.toISOString().slice(0, 19)}Z`; // and throws on an invalid date
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
