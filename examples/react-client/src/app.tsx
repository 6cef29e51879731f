import { ChatPanel } from "./agents/chat-panel";
import { CounterPanel } from "./agents/counter-panel";
import { AuthScreen } from "./auth/auth-screen";
import { signOut, useSession } from "./auth/session";
import { API_ORIGIN } from "./config";
import { TodosScreen } from "./todos/todos-screen";
import { ROUTES, useHashRoute } from "./ui/use-hash-route";

const LABELS = { todos: "Todos", counter: "Counter", chat: "Chat" } as const;

export function App() {
  const session = useSession();
  const route = useHashRoute();
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
        <button type="button" className="link" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main>
        {route === "todos" && <TodosScreen />}
        {route === "counter" && <CounterPanel />}
        {route === "chat" && <ChatPanel key={session.userId} session={session} />}
      </main>
    </>
  );
}
