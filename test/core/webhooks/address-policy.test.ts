import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ValidationError } from '../../../core/errors.js';
import type { LookupAll, ReceiverPolicy } from '../../../core/webhooks/address-policy.js';
import {
  checkReceiverUrl,
  connectedAddressReason,
  forbiddenAddressReason,
  guardedLookup,
  systemLookup,
} from '../../../core/webhooks/address-policy.js';

/** Simulated DNS: names map to addresses; anything else does not resolve. */
const zone: Record<string, string[]> = {
  'private.example': ['10.0.0.5'],
  'mixed.example': ['93.184.215.14', '2606:4700::1111', '10.0.0.5'],
  'public.example': ['93.184.215.14', '2606:4700::1111'],
  'metadata.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'rebind.test': ['127.0.0.1'],
};
const lookups: string[] = [];
const fakeLookup: LookupAll = async (hostname) => {
  lookups.push(hostname);
  const addresses = zone[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const prod: ReceiverPolicy = { allowInsecure: false, lookup: fakeLookup };
const dev: ReceiverPolicy = { allowInsecure: true, lookup: fakeLookup };

/** Asserts checkReceiverUrl refuses `url` with a ValidationError on `url` whose message contains `text`. */
async function refused(url: string, policy: ReceiverPolicy, text: string) {
  await assert.rejects(checkReceiverUrl(url, policy), (error: unknown) => {
    assert.ok(error instanceof ValidationError, `${url}: ${String(error)}`);
    assert.equal(error.field, 'url');
    assert.ok(error.message.includes(text), `${url}: '${error.message}' should contain '${text}'`);
    return true;
  });
}

describe('the WHATWG URL parser, relied on to normalize hosts', () => {
  const cases: [string, string][] = [
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://\uff11\uff12\uff17.0.0.1/', '127.0.0.1'], // full-width digits
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]'],
    ['http://[64:ff9b::127.0.0.1]/', '[64:ff9b::7f00:1]'],
    ['http://LOCALHOST./', 'localhost.'],
  ];
  for (const [url, hostname] of cases) {
    it(`${url} has hostname ${hostname}`, () => assert.equal(new URL(url).hostname, hostname));
  }
});

describe('forbiddenAddressReason', () => {
  const cases: [string, string | undefined][] = [
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['::', 'unspecified'],
    ['10.0.0.5', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['fc00::1', 'private'], ['fd00:ec2::254', 'private'], ['fec0::1', 'private'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'], ['100.100.100.200', 'carrier-grade NAT'], ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'], ['240.0.0.1', 'reserved'], ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'], ['198.51.100.7', 'documentation'], ['203.0.113.9', 'documentation'], ['2001:db8::1', 'documentation'],
    ['198.18.0.1', 'benchmarking'], ['198.19.255.255', 'benchmarking'],
    ['4000::1', 'reserved'], ['100::1', 'reserved'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.5', 'private'], ['::ffff:a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'loopback'], ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::10.0.0.5', 'private'],
    ['2002:7f00:1::', 'loopback'], ['2002:a9fe:a9fe::1', 'link-local'],
    // Not an address: refused rather than guessed at.
    ['example.com', 'not an IP address'], ['[::1]', 'not an IP address'], ['0177.0.0.1', 'not an IP address'], ['', 'not an IP address'],
    // Public, including the edges of the ranges above.
    ['93.184.215.14', undefined], ['8.8.8.8', undefined], ['1.1.1.1', undefined], ['2606:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined], ['64:ff9b::808:808', undefined], ['2002:808:808::1', undefined],
    ['172.15.255.255', undefined], ['172.32.0.0', undefined], ['100.63.255.255', undefined], ['100.128.0.0', undefined],
    ['198.17.255.255', undefined], ['198.20.0.0', undefined], ['223.255.255.255', undefined], ['11.0.0.1', undefined],
  ];
  for (const [address, reason] of cases) {
    it(`${address || "''"} → ${reason ?? 'allowed'}`, () => assert.equal(forbiddenAddressReason(address), reason));
  }
});

describe('checkReceiverUrl in production (allowInsecure: false)', () => {
  const literals: [string, string][] = [
    ['https://127.0.0.1/hook', 'a loopback address (127.0.0.1)'],
    ['https://2130706433/', 'a loopback address (127.0.0.1)'],
    ['https://0x7f.0.0.1/', 'a loopback address (127.0.0.1)'],
    ['https://0x7f000001/', 'a loopback address (127.0.0.1)'],
    ['https://0177.0.0.1/', 'a loopback address (127.0.0.1)'],
    ['https://127.1/', 'a loopback address (127.0.0.1)'],
    ['https://0x7f.1/', 'a loopback address (127.0.0.1)'],
    ['https://127.0.0.1./', 'a loopback address (127.0.0.1)'],
    ['https://%31%32%37.0.0.1/', 'a loopback address (127.0.0.1)'],
    ['https://[::ffff:127.0.0.1]/', 'a loopback address (::ffff:7f00:1)'],
    ['https://[::ffff:7f00:1]/', 'a loopback address (::ffff:7f00:1)'],
    ['https://[::1]:8443/', 'a loopback address (::1)'],
    ['https://[0:0:0:0:0:0:0:1]/', 'a loopback address (::1)'],
    ['https://[::]/', 'an unspecified address (::)'],
    ['https://0/', 'an unspecified address (0.0.0.0)'],
    ['https://10.1.2.3/', 'a private address (10.1.2.3)'],
    ['https://172.16.0.1/', 'a private address (172.16.0.1)'],
    ['https://192.168.1.1/', 'a private address (192.168.1.1)'],
    ['https://[fd00:ec2::254]/', 'a private address (fd00:ec2::254)'],
    ['https://169.254.169.254/latest/meta-data/', 'a link-local address (169.254.169.254)'],
    ['https://[fe80::1]/', 'a link-local address (fe80::1)'],
    ['https://100.100.100.200/', 'a carrier-grade NAT address (100.100.100.200)'],
    ['https://224.0.0.1/', 'a multicast address (224.0.0.1)'],
    ['https://[ff02::1]/', 'a multicast address (ff02::1)'],
    ['https://255.255.255.255/', 'a broadcast address (255.255.255.255)'],
    ['https://240.0.0.1/', 'a reserved address (240.0.0.1)'],
    ['https://198.51.100.7/', 'a documentation address (198.51.100.7)'],
    ['https://198.18.0.1/', 'a benchmarking address (198.18.0.1)'],
    ['https://[2001:db8::1]/', 'a documentation address (2001:db8::1)'],
    ['https://[64:ff9b::127.0.0.1]/', 'a loopback address (64:ff9b::7f00:1)'],
    ['https://[2002:7f00:1::]/', 'a loopback address (2002:7f00:1::)'],
    ['https://[::ffff:10.0.0.5]/', 'a private address (::ffff:a00:5)'],
  ];
  for (const [url, text] of literals) {
    it(`refuses ${url}`, async () => {
      lookups.length = 0;
      await refused(url, prod, `url points at ${text}`);
      assert.deepEqual(lookups, [], 'an IP literal is judged without DNS');
    });
  }

  for (const url of ['https://localhost/', 'https://LOCALHOST:8443/', 'https://localhost./', 'https://api.localhost/', 'https://a.b.localhost./']) {
    it(`refuses the localhost name in ${url}`, async () => {
      lookups.length = 0;
      await refused(url, prod, 'url points at a loopback host');
      assert.deepEqual(lookups, [], 'localhost names are refused without DNS');
    });
  }

  const names: [string, string][] = [
    ['https://private.example/', "url host 'private.example' resolves to a private address (10.0.0.5)"],
    ['https://mixed.example/', "url host 'mixed.example' resolves to a private address (10.0.0.5)"],
    ['https://metadata.example/', "url host 'metadata.example' resolves to a link-local address (169.254.169.254)"],
    ['https://mapped.example/', "url host 'mapped.example' resolves to a loopback address (::ffff:127.0.0.1)"],
    ['https://nowhere.example/', "url host 'nowhere.example' does not resolve"],
  ];
  for (const [url, message] of names) {
    it(`refuses ${url}: ${message}`, () => refused(url, prod, message));
  }

  it('refuses http', () => refused('http://public.example/hook', prod, 'url must use https'));

  const allowed: [string, string][] = [
    ['https://93.184.215.14/hook', 'https://93.184.215.14/hook'],
    ['https://8.8.8.8/', 'https://8.8.8.8/'],
    ['https://[2606:4700::1111]/', 'https://[2606:4700::1111]/'],
    ['https://[::ffff:8.8.8.8]/', 'https://[::ffff:808:808]/'],
    ['https://public.example/hook?x=1', 'https://public.example/hook?x=1'],
    ['https://PUBLIC.example:8443/a', 'https://public.example:8443/a'],
    ['https://user:secret@public.example/hook', 'https://user:secret@public.example/hook'],
  ];
  for (const [url, href] of allowed) {
    it(`allows ${url}`, async () => assert.equal((await checkReceiverUrl(url, prod)).href, href));
  }

  it('has systemLookup answer through the operating system resolver (a numeric host needs no network)', async () => {
    assert.deepEqual(await systemLookup('127.0.0.1'), [{ address: '127.0.0.1', family: 4 }]);
    assert.deepEqual(await systemLookup('::1'), [{ address: '::1', family: 6 }]);
  });
});

describe('checkReceiverUrl, always', () => {
  const garbage = ['ftp://public.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi', '/relative/hook', 'public.example/hook', '', 'https://', 'http://exa mple.com/', 'https://public.example:99999/'];
  for (const url of garbage) {
    for (const policy of [prod, dev]) {
      it(`refuses '${url}' (allowInsecure: ${policy.allowInsecure})`, () => refused(url, policy, 'url must be an absolute http(s) URL'));
    }
  }

  it('refuses URLs longer than 2048 characters', async () => {
    const url = (length: number) => `https://public.example/${'a'.repeat(length - 'https://public.example/'.length)}`;
    assert.equal((await checkReceiverUrl(url(2048), dev)).href.length, 2048);
    await refused(url(2049), dev, 'url must be at most 2048 characters');
    await refused(url(2049), prod, 'url must be at most 2048 characters');
  });

  it('allows http and any address in development (allowInsecure: true)', async () => {
    lookups.length = 0;
    for (const url of ['http://127.0.0.1:3000/hook', 'http://localhost/', 'http://[::1]/', 'http://0x7f.1/', 'http://private.example/', 'http://nowhere.example/']) {
      assert.ok((await checkReceiverUrl(url, dev)) instanceof URL, url);
    }
    assert.deepEqual(lookups, [], 'no DNS in development');
  });
});

/** Calls a LookupFunction and collects what it calls back with. */
function callLookup(lookup: LookupFunction, hostname: string, options: { all?: boolean; family?: number }) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }>((resolve) =>
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe('guardedLookup', () => {
  it('answers both the single-address and the all: true form, filtered by family', async () => {
    const lookup = guardedLookup(prod);
    assert.deepEqual(await callLookup(lookup, 'public.example', {}), { error: null, address: '93.184.215.14', family: 4 });
    assert.deepEqual(await callLookup(lookup, 'public.example', { family: 6 }), { error: null, address: '2606:4700::1111', family: 6 });
    const all = await callLookup(lookup, 'public.example', { all: true });
    assert.deepEqual(all.address, [{ address: '93.184.215.14', family: 4 }, { address: '2606:4700::1111', family: 6 }]);
  });

  it('fails with ERR_WEBHOOK_FORBIDDEN_ADDRESS when any address is forbidden, ENOTFOUND as the resolver does', async () => {
    for (const options of [{}, { all: true }, { family: 6 }]) {
      const { error } = await callLookup(guardedLookup(prod), 'mixed.example', options);
      assert.equal(error?.code, 'ERR_WEBHOOK_FORBIDDEN_ADDRESS');
      assert.match(error.message, /private address \(10\.0\.0\.5\)/);
    }
    assert.equal((await callLookup(guardedLookup(prod), 'nowhere.example', {})).error?.code, 'ENOTFOUND');
    assert.equal((await callLookup(guardedLookup(dev), 'private.example', {})).address, '10.0.0.5');
  });

  describe('used by http.request against a local server', () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end('ok');
    });
    let port = 0;
    before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
    before(() => (port = (server.address() as AddressInfo).port));
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const post = (policy: ReceiverPolicy) =>
      new Promise<{ status: number | undefined; remote: string | undefined }>((resolve, reject) => {
        const req = request({ host: 'rebind.test', port, method: 'POST', path: '/', agent: false, lookup: guardedLookup(policy) }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, remote: res.socket.remoteAddress }));
        });
        req.on('error', reject);
        req.end('{}');
      });

    it('refuses to connect when the name resolves to loopback in production', async () => {
      requests = 0;
      await assert.rejects(post(prod), { code: 'ERR_WEBHOOK_FORBIDDEN_ADDRESS' });
      assert.equal(requests, 0, 'no request reached the server');
    });

    it('connects when insecure webhooks are allowed', async () => {
      requests = 0;
      const { status, remote } = await post(dev);
      assert.equal(status, 200);
      assert.equal(requests, 1);
      assert.equal(connectedAddressReason(remote, prod), 'loopback', 'the connected address is checkable too');
    });
  });
});

describe('connectedAddressReason', () => {
  const cases: [string | undefined, ReceiverPolicy, string | undefined][] = [
    ['127.0.0.1', prod, 'loopback'],
    ['::ffff:127.0.0.1', prod, 'loopback'],
    ['10.0.0.5', prod, 'private'],
    ['93.184.215.14', prod, undefined],
    ['2606:4700::1111', prod, undefined],
    [undefined, prod, 'unknown address'],
    ['127.0.0.1', dev, undefined],
    [undefined, dev, undefined],
  ];
  for (const [address, policy, reason] of cases) {
    it(`${address} (allowInsecure: ${policy.allowInsecure}) → ${reason ?? 'allowed'}`, () => assert.equal(connectedAddressReason(address, policy), reason));
  }
});
