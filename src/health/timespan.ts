// .NET TimeSpan text ([d.]hh:mm:ss.fffffff, the constant "c" format) (seven fractional digits: 100-nanosecond ticks), as the
// established platform's health report prints durations.
export function formatTimeSpan(nanoseconds: bigint): string {
  const ticks = nanoseconds / 100n;
  const fraction = ticks % 10_000_000n;
  const totalSeconds = ticks / 10_000_000n;
  const seconds = totalSeconds % 60n;
  const minutes = (totalSeconds / 60n) % 60n;
  const hours = (totalSeconds / 3600n) % 24n;
  const days = totalSeconds / 86400n;
  const two = (n: bigint) => n.toString().padStart(2, '0');
  return `${days > 0n ? `${days}.` : ''}${two(hours)}:${two(minutes)}:${two(seconds)}.${fraction.toString().padStart(7, '0')}`;
}
