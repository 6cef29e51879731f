// Client addresses for tests, in Workers and in Node alike. The per-IP limiters are shared by every
// test of a run, so each test that needs an address takes one of its own.

/**
 * A client address no other request of the run uses: 64 random bits in the IPv6 documentation
 * range 2001:db8::/32 (RFC 3849), so two tests never share a limiter key by chance.
 */
export function freshIp(): string {
  const groups = Array.from(crypto.getRandomValues(new Uint16Array(4)), (g) => g.toString(16));
  return `2001:db8:${groups.join(":")}::1`;
}

/** The headers of a request from a fresh client address. */
export function fromFreshIp(): { "CF-Connecting-IP": string } {
  return { "CF-Connecting-IP": freshIp() };
}
