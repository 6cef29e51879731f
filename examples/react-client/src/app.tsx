import { AcceptInvite } from "./auth/accept-invite";
import { AuthScreen } from "./auth/auth-screen";
import { ConfirmEmail } from "./auth/confirm-email";
import { ResetPassword } from "./auth/password-reset";
import { useSession } from "./auth/session";
import { AppShell } from "./shell/app-shell";
import { Toaster } from "./ui/toast";
import { useConfirmEmailToken, useInviteToken, useResetToken } from "./ui/use-hash-route";

export function App() {
  const session = useSession();
  const resetToken = useResetToken();
  const confirmToken = useConfirmEmailToken();
  const inviteToken = useInviteToken();
  return (
    <>
      {resetToken ? (
        <ResetPassword token={resetToken} />
      ) : confirmToken ? (
        <ConfirmEmail token={confirmToken} />
      ) : inviteToken ? (
        session ? (
          <AcceptInvite token={inviteToken} session={session} />
        ) : (
          <AuthScreen invited />
        )
      ) : session ? (
        <AppShell session={session} />
      ) : (
        <AuthScreen />
      )}
      <Toaster />
    </>
  );
}
