// How every door counts a client's address (src/shared/client-address.ts): IPv4 whole, IPv6 by its
// /64, each spelling of one address counted as one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressKey } from '../../src/shared/client-address.ts';

describe('a client address as it is counted', () => {
  it('keeps an IPv4 address whole, also mapped into IPv6', () => {
    assert.equal(addressKey('192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('::FFFF:192.0.2.7'), '192.0.2.7');
  });

  it('counts an IPv6 address by its /64, however it is spelled', () => {
    const spellings = ['2001:db8:0:1::5', '2001:DB8:0:1:0:0:0:5', '2001:0db8:0000:0001:ffff::1', '2001:db8:0:1::9%eth0'];
    for (const spelling of spellings) assert.equal(addressKey(spelling), '2001:db8:0:1::/64', spelling);
    assert.notEqual(addressKey('2001:db8:0:2::5'), addressKey('2001:db8:0:1::5'));
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    // An IPv4 tail takes two groups: the /64 is the four groups before them.
    assert.equal(addressKey('64:ff9b::192.0.2.7'), '64:ff9b:0:0::/64');
  });

  it('answers an empty key for no address', () => {
    assert.equal(addressKey(undefined), '');
  });
});
