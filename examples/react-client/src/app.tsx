import { AuthScreen } from "./auth/auth-screen";
import { ConfirmEmail } from "./auth/confirm-email";
import { ResetPassword } from "./auth/password-reset";
import { useSession } from "./auth/session";
import { AppShell } from "./shell/app-shell";
import { Toaster } from "./ui/toast";
import { useConfirmEmailToken, useResetToken } from "./ui/use-hash-route";

export function App() {
  const session = useSession();
  const resetToken = useResetToken();
  const confirmToken = useConfirmEmailToken();
  return (
    <>
      {resetToken ? (
        <ResetPassword token={resetToken} />
      ) : confirmToken ? (
        <ConfirmEmail token={confirmToken} />
      ) : session ? (
        <AppShell session={session} />
      ) : (
        <AuthScreen />
      )}
      <Toaster />
    </>
  );
}
