import { Suspense, useEffect, useRef } from "react";
import type { Session } from "../auth/session";
import { findScreen } from "../screens";
import { Logo } from "../ui/logo";
import { useHashPath } from "../ui/use-hash-route";
import { AccountMenu } from "./account-menu";
import { MainNav } from "./main-nav";

/** The signed-in frame: a skip link, the top bar, and the current screen in `<main>`. */
export function AppShell({ session }: { session: Session }) {
  const screen = findScreen(useHashPath());
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a navigation, focus moves to the new screen (not on first load: the page starts at the top).
  useEffect(() => {
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [screen.path]);

  const Screen = screen.component;
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        onClick={(event) => {
          // A hash link would change the route: focus the content instead.
          event.preventDefault();
          main.current?.focus();
        }}
        className="sr-only z-50 rounded-lg bg-white px-3 py-2 font-medium text-orange-800 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-1 px-4 pt-2 sm:h-14 sm:flex-nowrap sm:pt-0">
          <a href="#/todos" className="rounded">
            <Logo />
          </a>
          <MainNav current={screen.path} />
          <AccountMenu session={session} />
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} className="mx-auto max-w-5xl px-4 py-6 outline-none sm:py-8">
        <Suspense fallback={<p className="text-slate-600">Loading…</p>}>
          <Screen key={`${screen.path}/${session.userId}`} session={session} />
        </Suspense>
      </main>
    </div>
  );
}
