import type { ReactNode } from "react";
import { Logo } from "../ui/logo";
import { useDocumentTitle } from "../ui/page";

/** The signed-out screens: the brand, one centred card with the screen's h1, and links below it. */
export function AuthLayout({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-10">
      <p className="mb-6">
        <Logo />
      </p>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {children}
      </div>
      {footer && <div className="mt-6 flex flex-col items-center gap-2 text-sm">{footer}</div>}
    </main>
  );
}

/** A text link that acts in place (switching forms): a button, styled as a link. */
export function LinkButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded font-medium text-orange-800 underline-offset-4 hover:underline"
    >
      {children}
    </button>
  );
}
