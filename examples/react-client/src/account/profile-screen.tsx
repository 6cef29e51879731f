import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { getSession, signIn, type Session } from "../auth/session";
import { ErrorMessage } from "../ui/error-message";
import { Page } from "../ui/page";
import { AccountTabs } from "./account-tabs";
import { DeleteAccount } from "./delete-account";
import { ProfileForm } from "./profile-form";

type User = components["schemas"]["User"];

/** Your details (name, e-mail, age, username) and deleting the account. */
export function ProfileScreen({ session }: { session: Session }) {
  const [user, setUser] = useState<User | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    unwrap(api.GET("/api/me")).then(
      (me) => current && setUser(me.user),
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, []);

  return (
    <Page title="Profile" description="Your details and your account.">
      <AccountTabs current="account" />
      <ErrorMessage error={error} />
      {user && (
        <>
          <ProfileForm
            user={user}
            onSaved={(saved) => {
              setUser(saved);
              // The top bar shows the username from the sign-in; keep it current.
              const signedIn = getSession();
              if (signedIn && signedIn.username !== saved.username)
                signIn({ ...signedIn, username: saved.username });
            }}
          />
          <DeleteAccount user={user} userId={session.userId} />
        </>
      )}
    </Page>
  );
}
