// Which client addresses may use the Patron API (CARREL_PATRONAPI_ALLOW), as Sierra's "Limit
// Network Access" entries for it: CIDR ranges, IPv4 and IPv6.
import net from 'node:net';

export function allowList(ranges: readonly string[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const range of ranges) {
    const [address = '', bits] = range.split('/');
    const type = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (raw) => {
    if (!raw) return false;
    // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw)?.[1];
    const address = mapped ?? raw;
    return list.check(address, net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}
