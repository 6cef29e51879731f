import { AuthScreen } from "./auth/auth-screen";
import { ResetPassword } from "./auth/password-reset";
import { useSession } from "./auth/session";
import { AppShell } from "./shell/app-shell";
import { Toaster } from "./ui/toast";
import { useResetToken } from "./ui/use-hash-route";

export function App() {
  const session = useSession();
  const resetToken = useResetToken();
  return (
    <>
      {resetToken ? (
        <ResetPassword token={resetToken} />
      ) : session ? (
        <AppShell session={session} />
      ) : (
        <AuthScreen />
      )}
      <Toaster />
    </>
  );
}
