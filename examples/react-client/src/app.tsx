import { lazy, Suspense } from "react";
import { ConnectedApps } from "./apps/connected-apps";
import { AuthScreen } from "./auth/auth-screen";
import { ResetPassword } from "./auth/password-reset";
import { logOut } from "./auth/refresh";
import { useSession } from "./auth/session";
import { API_ORIGIN } from "./config";
import { FilesScreen } from "./files/files-screen";
import { TodosScreen } from "./todos/todos-screen";
import { ROUTES, useHashRoute, useResetToken } from "./ui/use-hash-route";

// The agent screens bring the Agents SDK and the AI SDK: loaded when first opened, not with sign-in.
const CounterPanel = lazy(() => import("./agents/counter-panel").then((m) => ({ default: m.CounterPanel })));
const ChatsScreen = lazy(() => import("./chats/chats-screen").then((m) => ({ default: m.ChatsScreen })));

const LABELS = {
  todos: "Todos",
  files: "My files",
  apps: "Connected apps",
  counter: "Counter",
  chat: "Chat",
} as const;

export function App() {
  const session = useSession();
  const route = useHashRoute();
  const resetToken = useResetToken();
  if (resetToken) return <ResetPassword token={resetToken} />;
  if (!session) return <AuthScreen />;

  return (
    <>
      <header className="topbar">
        <nav aria-label="Screens">
          {ROUTES.map((name) => (
            <a key={name} href={`#/${name}`} aria-current={route === name ? "page" : undefined}>
              {LABELS[name]}
            </a>
          ))}
        </nav>
        <span className="muted">
          {session.username} · {new URL(API_ORIGIN).host}
        </span>
        <button type="button" className="link" onClick={() => void logOut()}>
          Sign out
        </button>
      </header>
      <main>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          {route === "todos" && <TodosScreen key={session.userId} userId={session.userId} />}
          {route === "files" && <FilesScreen />}
          {route === "apps" && <ConnectedApps />}
          {route === "counter" && <CounterPanel />}
          {route === "chat" && <ChatsScreen key={session.userId} session={session} />}
        </Suspense>
      </main>
    </>
  );
}
