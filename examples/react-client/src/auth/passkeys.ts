import { api, unwrap } from "../api/client";
import { signIn } from "./session";

// @simplewebauthn/browser loads with the first passkey ceremony, not with the app.
const webauthn = () => import("@simplewebauthn/browser");

/** Whether this browser can create and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === "function";
}

/** The browser's refusals in people's words (the library's own error names the cause in `name` or `code`). */
function deviceError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as Error & { code?: string }).code;
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return new Error("This device already has a passkey for your account.");
  }
  if (err.name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED") {
    return new Error("The passkey request was cancelled or timed out. Try again when you're ready.");
  }
  if (err.name === "SecurityError" || code === "ERROR_INVALID_RP_ID" || code === "ERROR_INVALID_DOMAIN") {
    return new Error("Passkeys can't be used on this address. Open the app on its usual address.");
  }
  return err;
}

/** Creates a passkey on this device for the signed-in user: the password again, then the device's prompt. */
export async function addPasskey(currentPassword: string, name: string) {
  const optionsJSON = await unwrap(
    api.POST("/api/passkeys/registration/options", { body: { currentPassword } }),
  );
  const { startRegistration } = await webauthn();
  let response;
  try {
    response = await startRegistration({ optionsJSON });
  } catch (err) {
    throw deviceError(err);
  }
  // A copy of the extension results: the service's type is a plain record of them.
  const body = { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } };
  return unwrap(api.POST("/api/passkeys", { body: { ...body, ...(name ? { name } : {}) } }));
}

/** Signs in with a passkey that this device (or a phone nearby) holds: no username asked. */
export async function signInWithPasskey() {
  const optionsJSON = await unwrap(api.POST("/api/auth/passkey/options"));
  const { startAuthentication } = await webauthn();
  let response;
  try {
    response = await startAuthentication({ optionsJSON });
  } catch (err) {
    throw deviceError(err);
  }
  const body = { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } };
  signIn(await unwrap(api.POST("/api/auth/passkey/verify", { body })));
}
