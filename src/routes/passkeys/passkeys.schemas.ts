import { z } from "@hono/zod-openapi";
import { passkeysTable, PASSKEY_DEVICE_TYPES } from "../../db/credentials-schema";
import { createSelectSchema } from "../../db/zod";
import { pageSchema } from "../../core/paging";
import { AuthenticationResponse, RegistrationResponse, Transports } from "../../auth/passkeys/webauthn-json";

// One line of text: names are shown in lists and in the password-reset e-mail, where a line break or
// other control character would let a name pass for the e-mail's own words.
const PasskeyName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  // C0 and C1 controls; no `u` flag, which a JSON Schema pattern cannot carry.
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, "Must not contain line breaks or other control characters")
  .openapi({
    example: "MacBook Touch ID",
    description: "Trimmed; a name of spaces only is too small (400).",
  });

export const RegisterPasskeyBody = z
  .object({
    response: RegistrationResponse,
    name: PasskeyName.optional().openapi({
      description: 'Trimmed; a name of spaces only is too small (400). Omitted: "Passkey added <date>".',
    }),
  })
  .strict()
  .openapi("RegisterPasskeyBody");

export const PasskeySignInBody = z
  .object({ response: AuthenticationResponse })
  .strict()
  .openapi("PasskeySignInBody");

export const RegistrationOptionsBody = z
  .object({
    currentPassword: z.string().min(1).max(256).openapi({
      description: "Your password: a stolen token alone cannot add a passkey that outlives it.",
      example: "correct horse battery staple",
    }),
  })
  .strict()
  .openapi("PasskeyRegistrationOptionsBody");

export const RenamePasskeyBody = z.object({ name: PasskeyName }).strict().openapi("RenamePasskeyBody");

export const PasskeySchema = createSelectSchema(passkeysTable, {
  transports: Transports,
  deviceType: z.enum(PASSKEY_DEVICE_TYPES).openapi({
    description:
      "`multiDevice`: synced between devices (iCloud Keychain, Google Password Manager); `singleDevice`: kept on one.",
  }),
  backedUp: z.boolean().openapi({ description: "Whether the passkey is backed up (synced) now." }),
})
  .omit({ userId: true, credentialId: true, publicKey: true, userHandle: true, counter: true })
  .openapi("Passkey", { description: "A passkey as listed: never its key or handle." });

export const PasskeyPageSchema = pageSchema(PasskeySchema).openapi("PasskeyPage");

const Descriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

const challenge = z.string().openapi({
  description: "Signed by the service, valid 5 minutes, once; a registration's only for the user who asked.",
});

// WebAuthn's requirement levels, for resident keys and user verification alike.
const Requirement = z.enum(["required", "preferred", "discouraged"]);

export const RegistrationOptionsSchema = z
  .object({
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge,
    pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.number().int() })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(Descriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
        residentKey: Requirement.optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: Requirement.optional(),
      })
      .optional(),
    attestation: z.enum(["none", "indirect", "direct", "enterprise"]).optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("PasskeyRegistrationOptions", {
    description:
      "WebAuthn's PublicKeyCredentialCreationOptionsJSON: pass it to `startRegistration({ optionsJSON })`.",
  });

export const SignInOptionsSchema = z
  .object({
    challenge,
    timeout: z.number().int().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(Descriptor).optional(),
    userVerification: Requirement.optional(),
  })
  .openapi("PasskeySignInOptions", {
    description:
      "WebAuthn's PublicKeyCredentialRequestOptionsJSON: pass it to `startAuthentication({ optionsJSON })`.",
  });
