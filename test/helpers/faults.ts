/**
 * The real binding with some methods replaced (fault injection); every other member is the
 * original, bound to the real object so native methods keep working.
 */
export function withFaults<T extends object>(target: T, overrides: { [K in keyof T]?: T[K] }): T {
  return new Proxy(target, {
    get(real, prop, wrapped) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T];
      // A wrapped D1 is its own session (src/http/d1-session.ts), so the faults reach every /api query.
      if (prop === "withSession" && "withSession" in real) return () => wrapped;
      // ...which has no replica to track, so no bookmark.
      if (prop === "getBookmark" && "withSession" in real) return () => null;
      const value = Reflect.get(real, prop, real);
      return typeof value === "function" ? value.bind(real) : value;
    },
  });
}

/** A rejected promise standing for a binding call that failed inside Cloudflare. */
export const injected = (what: string) => Promise.reject(new Error(`${what}: injected fault`));

/** A binding no member of which may be read: proves a code path never reaches it. */
export function untouchable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: () => {
      throw new Error(`${what} must not be touched`);
    },
  });
}
