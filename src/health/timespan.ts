// .NET TimeSpan text ([d.]hh:mm:ss.fffffff, the constant "c" format) (seven fractional digits: 100-nanosecond ticks), as the
// established platform's health report prints durations.
//
// Computed in Numbers, not BigInts: each BigInt operation makes a new heap object, and GET /api,
// which load balancers poll, formats three durations an answer. A Number holds any duration
// below 28,000 years in ticks exactly.
export function formatTimeSpan(nanoseconds: bigint): string {
  const ticks = Number(nanoseconds / 100n);
  const fraction = ticks % 10_000_000;
  const totalSeconds = Math.floor(ticks / 10_000_000);
  const seconds = totalSeconds % 60;
  const minutes = Math.floor(totalSeconds / 60) % 60;
  const hours = Math.floor(totalSeconds / 3600) % 24;
  const days = Math.floor(totalSeconds / 86400);
  return `${days > 0 ? `${days}.` : ''}${two(hours)}:${two(minutes)}:${two(seconds)}.${String(fraction).padStart(7, '0')}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
