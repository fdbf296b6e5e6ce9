/** Which addresses the `uri` fetcher may connect to: pure functions, no network. */
import { expect } from 'chai';

import { classifyAddress, isPublicAddress, mayConnect, parseIPv4, parseIPv6, type AddressClass } from '../../src/documents/address-policy.js';

describe('address-policy', () => {
  const table: [string, AddressClass][] = [
    // public IPv4
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['11.0.0.1', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['126.255.255.255', 'public'],
    ['128.0.0.1', 'public'],
    ['169.253.255.255', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.169.0.0', 'public'],
    ['198.20.0.1', 'public'],
    ['223.255.255.255', 'public'],
    // refused IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.170.2', 'link-local'],
    ['169.254.0.0', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['100.100.100.200', 'cloud-metadata'],
    ['100.100.100.199', 'shared'],
    ['100.100.100.201', 'shared'],
    ['192.0.0.192', 'cloud-metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // public IPv6 (and IPv4 embeddings of public IPv4)
    ['2606:4700::1111', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2a00:1450:4001:830::200e', 'public'],
    ['2600::', 'public'],
    ['::ffff:93.184.216.34', 'public'],
    ['::ffff:5db8:d822', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:5db8:d822::1', 'public'],
    // refused IPv6
    ['::', 'unspecified'],
    ['0::0', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:0001', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['0000:0000:0000:0000:0000:ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:255.255.255.255', 'broadcast'],
    ['::ffff:100.64.0.1', 'shared'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::5db8:d822', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b:1::1', 'reserved'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fd00:ec2::23', 'cloud-metadata'],
    ['fd00:0ec2:0:0:0:0:0:fe', 'cloud-metadata'],
    ['fd00:ec3::254', 'unique-local'],
    ['::ffff:100.100.100.200', 'cloud-metadata'],
    ['64:ff9b::6464:64c8', 'cloud-metadata'],
    ['2002:6464:64c8::1', 'cloud-metadata'],
    ['::ffff:169.254.170.2', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'reserved'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'],
    // Issue 19: every form that carries an IPv4 address is judged by it too.
    ['::ffff:0:169.254.169.254', 'link-local'], // SIIT, IPv4-translated
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:8.8.8.8', 'public'],
    ['64:ff9b:1::169.254.169.254', 'link-local'], // local-use NAT64, /96
    ['64:ff9b:1:0:a9:fea9:fe00::', 'link-local'], // /64: the u octet, then the address
    ['64:ff9b:1:a9:fe:a9fe::', 'link-local'], // /56
    ['64:ff9b:1:a9fe:a9:fe00::', 'link-local'], // /48: the address around the u octet
    ['64:ff9b:1:6464:64:c800::', 'cloud-metadata'],
    ['64:ff9b:1::808:808', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'link-local'], // Teredo client 169.254.169.254, stored inverted
    ['2001:0:a9fe:a9fe::1', 'link-local'], // Teredo server
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'reserved'], // client 10.0.0.1: named by the Teredo block, as strict
    ['2600::5efe:169.254.169.254', 'link-local'], // ISATAP
    ['2600::200:5efe:a9fe:a9fe', 'link-local'], // ISATAP, u bit set
    ['2600::5efe:10.1.2.3', 'private'],
    ['2600::5efe:8.8.8.8', 'public'],
    ['2002:808:808::5efe:a9fe:a9fe', 'link-local'], // ISATAP behind a 6to4 prefix
    ['168.63.129.16', 'cloud-metadata'], // Azure WireServer
    ['168.63.129.15', 'public'],
    ['168.63.129.17', 'public'],
    ['::ffff:168.63.129.16', 'cloud-metadata'],
    ['64:ff9b::a83f:8110', 'cloud-metadata'],
    ['fd20:ce::254', 'cloud-metadata'], // Google Compute Engine, IPv6-only instances
    ['fd20:ce::253', 'unique-local'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['1::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::2', 'reserved'],
    // not addresses
    ['', 'invalid'],
    ['localhost', 'invalid'],
    ['example.com', 'invalid'],
    ['1.2.3', 'invalid'],
    ['127.1', 'invalid'],
    ['256.1.1.1', 'invalid'],
    ['01.2.3.4', 'invalid'],
    ['1::2::3', 'invalid'],
    [':::', 'invalid'],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
    ['gggg::1', 'invalid'],
    ['::ffff:1.2.3.256', 'invalid'],
  ];

  for (const [address, expected] of table) {
    it(`classifies ${JSON.stringify(address)} as ${expected}`, () => {
      expect(classifyAddress(address)).to.equal(expected);
      expect(isPublicAddress(address)).to.equal(expected === 'public');
    });
  }

  it('keeps metadata and link-local refused under allowPrivate, however the IPv4 address is carried', () => {
    const forms = [
      '169.254.169.254', '::ffff:169.254.169.254', '::169.254.169.254', '::ffff:0:169.254.169.254', '64:ff9b::169.254.169.254',
      '64:ff9b:1::169.254.169.254', '64:ff9b:1:0:a9:fea9:fe00::', '64:ff9b:1:a9:fe:a9fe::', '64:ff9b:1:a9fe:a9:fe00::',
      '2002:a9fe:a9fe::1', '2001:0:4136:e378:8000:63bf:5601:5601', '2001:0:a9fe:a9fe::', '2600::5efe:169.254.169.254', '2600::200:5efe:a9fe:a9fe',
      '168.63.129.16', '::ffff:0:168.63.129.16', '64:ff9b:1::a83f:8110', '100.100.100.200', '64:ff9b:1::6464:64c8', '192.0.0.192',
      'fd00:ec2::254', 'fd20:ce::254', 'fe80::a9fe:a9fe',
    ];
    for (const address of forms) {
      const cls = classifyAddress(address);
      expect(mayConnect(cls, { allowPrivate: true }), `${address} (${cls})`).to.equal(false);
      expect(mayConnect(cls, { allowPrivate: true, allowLinkLocal: true }), address).to.equal(true);
    }
  });

  it('parses IPv4 to a 32-bit number', () => {
    expect(parseIPv4('127.0.0.1')).to.equal(0x7f000001);
    expect(parseIPv4('255.255.255.255')).to.equal(0xffffffff);
    expect(parseIPv4('::1')).to.equal(null);
  });

  it('parses compressed, expanded and mapped IPv6 to the same number', () => {
    expect(parseIPv6('::ffff:127.0.0.1')).to.equal(parseIPv6('0:0:0:0:0:ffff:7f00:0001'));
    expect(parseIPv6('::1')).to.equal(1n);
    expect(parseIPv6('1::')).to.equal(1n << 112n);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).to.equal(0x00010002000300040005000600070008n);
    expect(parseIPv6('1:2:3::7:8')).to.equal(0x00010002000300000000000000070008n);
    expect(parseIPv6('127.0.0.1')).to.equal(null);
  });
});
