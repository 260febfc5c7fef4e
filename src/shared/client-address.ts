// A client's address as its connections and failures are counted, by every door.
import net from 'node:net';

/**
 * The part of a client address that is counted: an IPv4 address (an IPv4-mapped IPv6 one
 * included) whole; an IPv6 address by its /64 network, since one host usually holds a whole /64.
 * A link-local address's zone (`%eth0`) is not part of it.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return '';
  const raw = address.split('%')[0]!.toLowerCase();
  if (raw.startsWith('::ffff:') && net.isIPv4(raw.slice(7))) return raw.slice(7);
  if (!net.isIPv6(raw)) return raw;
  const [head = '', tail] = raw.split('::');
  // An IPv4 tail (64:ff9b::1.2.3.4) takes two groups' room.
  const groups = (text: string) => (text ? text.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
