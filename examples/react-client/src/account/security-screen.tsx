import type { Session } from "../auth/session";
import { Page } from "../ui/page";
import { AccountTabs } from "./account-tabs";
import { PasskeyList } from "./passkey-list";
import { PasswordForm } from "./password-form";
import { SessionList } from "./session-list";

/** Your password, your passkeys, and the devices signed in to your account. */
export function SecurityScreen({ session }: { session: Session }) {
  return (
    <Page
      title="Sign-in & security"
      description="Your password, your passkeys, and where your account is signed in."
    >
      <AccountTabs current="account/security" />
      <PasswordForm userId={session.userId} />
      <PasskeyList />
      <SessionList />
    </Page>
  );
}
