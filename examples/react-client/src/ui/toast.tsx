import * as RadixToast from "@radix-ui/react-toast";
import { useSyncExternalStore } from "react";
import { Button } from "./button";
import { CloseIcon } from "./icons";

interface Toast {
  id: number;
  title: string;
  description?: string;
  tone: "success" | "error" | "info";
  /** One action, such as Undo; the toast closes when it runs. */
  action?: { label: string; altText: string; run: () => void };
  /** Runs once the toast is gone: after its time, when dismissed, or after its action. */
  onClose?: () => void;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Shows a short message at the edge of the screen (announced to screen readers by Radix). */
export function toast(item: Omit<Toast, "id" | "tone"> & { tone?: Toast["tone"] }): void {
  toasts = [...toasts, { tone: "success", ...item, id: nextId++ }];
  emit();
}

function close(id: number) {
  const closing = toasts.find((item) => item.id === id);
  toasts = toasts.filter((item) => item.id !== id);
  emit();
  closing?.onClose?.();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const TONES = {
  success: "border-green-200",
  error: "border-red-300",
  info: "border-slate-200",
};

/** Whether a pointer or focus event comes from a toast: a dialog open beneath stays open (dialog.tsx). */
export const fromToast = (event: Event) =>
  event.target instanceof Element && event.target.closest(".toast-viewport") !== null;

/**
 * Where toasts appear: bottom of the screen on phones (the top while a bottom sheet is open, so none
 * covers it: styles.css), bottom right from `sm` up. Short, and each has its Dismiss, also over a dialog.
 */
export function Toaster() {
  const list = useSyncExternalStore(subscribe, () => toasts);
  return (
    <RadixToast.Provider duration={4000} label="Notification">
      {list.map((item) => (
        <RadixToast.Root
          key={item.id}
          type={item.tone === "error" ? "foreground" : "background"}
          // A toast with an action (Undo) stays longer: people need the time to reach it.
          duration={item.action ? 8000 : undefined}
          onOpenChange={(open) => !open && close(item.id)}
          className={`flex items-start gap-3 rounded-xl border bg-white p-3 text-sm shadow-lg ${TONES[item.tone]}`}
        >
          <div className="min-w-0 flex-1">
            <RadixToast.Title className="font-medium break-words text-slate-900">
              {item.title}
            </RadixToast.Title>
            {item.description && (
              <RadixToast.Description className="mt-0.5 text-slate-600">
                {item.description}
              </RadixToast.Description>
            )}
          </div>
          {item.action && (
            <RadixToast.Action altText={item.action.altText} asChild>
              <Button size="sm" onClick={item.action.run}>
                {item.action.label}
              </Button>
            </RadixToast.Action>
          )}
          <RadixToast.Close asChild>
            <Button variant="ghost" size="sm" aria-label="Dismiss">
              <CloseIcon />
            </Button>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport pointer-events-auto fixed inset-x-0 bottom-0 z-[60] flex flex-col gap-2 p-3 sm:right-0 sm:left-auto sm:w-96 sm:p-4" />
    </RadixToast.Provider>
  );
}
