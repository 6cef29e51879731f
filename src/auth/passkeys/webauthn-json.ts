import { z } from "@hono/zod-openapi";

// What @simplewebauthn/browser's startRegistration() and startAuthentication() return (WebAuthn's
// RegistrationResponseJSON and AuthenticationResponseJSON), bounded field by field: the request
// bodies' schemas and the ceremonies' types.

const b64url = (max: number, description?: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Must be base64url")
    .openapi({ description });

export const Transports = z
  .array(
    z
      .string()
      .regex(/^[a-z-]{1,32}$/)
      .openapi({ example: "internal" }),
  )
  .max(10);

// Credential ids are at most 1,023 bytes.
const CredentialId = b64url(1364, "The credential id, as the authenticator returned it.");

const credentialFields = {
  id: CredentialId,
  rawId: CredentialId,
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  // The service asks for no extensions; what a client reports anyway is not read.
  clientExtensionResults: z.record(z.string(), z.unknown()),
};

export const RegistrationResponse = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: b64url(8192),
        attestationObject: b64url(16384),
        // What a browser reads out of the attestation object for its page; the service reads the object.
        authenticatorData: b64url(8192).optional(),
        transports: Transports.optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: b64url(4096).optional(),
      })
      .strict(),
  })
  .strict()
  .openapi("PasskeyRegistrationResponse", {
    description: "The created credential, as `startRegistration()` of @simplewebauthn/browser returns it.",
  });

export const AuthenticationResponse = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: b64url(8192),
        authenticatorData: b64url(8192),
        signature: b64url(1024),
        userHandle: b64url(88).optional(),
      })
      .strict(),
  })
  .strict()
  .openapi("PasskeyAuthenticationResponse", {
    description: "The assertion, as `startAuthentication()` of @simplewebauthn/browser returns it.",
  });

export type RegistrationResponseJSON = z.infer<typeof RegistrationResponse>;
export type AuthenticationResponseJSON = z.infer<typeof AuthenticationResponse>;
