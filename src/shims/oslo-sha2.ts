// @oslojs/webauthn hashes in pure JavaScript (SHA-224, -256, -512) only in two helpers the service
// never calls, AuthenticatorData.verifyRelyingPartyIdHash() and createAssertionSignatureMessage():
// src/auth/passkeys hashes with WebCrypto. The build (scripts/build-worker.mjs) swaps the module for
// this stand-in; the name is the one the package imports.

export function sha256(): never {
  throw new Error("@oslojs/crypto/sha2 is not bundled in this Worker: passkeys hash with WebCrypto");
}
