// A global Reflect polyfill that only @peculiar/x509 needs; the build replaces that package too
// (src/shims/x509.ts), so nothing reads decorator metadata and nothing is polyfilled.
export const polyfilled = false;
