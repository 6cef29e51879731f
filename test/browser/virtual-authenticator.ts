// Chromium's virtual WebAuthn authenticator over the DevTools protocol: a platform authenticator that
// keeps discoverable credentials, verifies its user (as Touch ID would) and answers without a prompt.
import type { Page } from "playwright-core";

export interface VirtualAuthenticator {
  /** The credentials it holds: one per passkey created on it. */
  credentials(): Promise<{ credentialId: string; rpId?: string; userHandle?: string; signCount: number }[]>;
  remove(): Promise<void>;
}

export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    remove: async () => {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
      await cdp.detach();
    },
  };
}
