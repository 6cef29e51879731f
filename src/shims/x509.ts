// @simplewebauthn/server builds X.509 certificate chains with @peculiar/x509 (and the reflect-metadata
// and tsyringe it needs) only to chain an attestation statement to trust anchors, or to check a
// certificate's revocation list. The service sets no trust anchors (src/auth/passkeys/webauthn.ts), so
// the library returns before either; the build swaps the package for this stand-in, 28 KiB less upload.
// The names are those the library imports.

function notBundled(): never {
  throw new Error("X.509 chain building is not bundled: the service verifies no attestation trust anchors");
}

export function X509Certificate(): never {
  notBundled();
}

export function X509ChainBuilder(): never {
  notBundled();
}

export function X509Crl(): never {
  notBundled();
}

export function AuthorityKeyIdentifierExtension(): never {
  notBundled();
}

export function CRLDistributionPointsExtension(): never {
  notBundled();
}

export function SubjectKeyIdentifierExtension(): never {
  notBundled();
}
