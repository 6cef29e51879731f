import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as RadixDialog from "@radix-ui/react-dialog";
import { useState, type ReactNode } from "react";
import { Button } from "./button";
import { ErrorMessage } from "./error-message";
import { CloseIcon } from "./icons";
import { fromToast } from "./toast";

// A sheet from the bottom on phones, a centred panel from `sm` up; it scrolls inside, never the page.
const OVERLAY = "fixed inset-0 z-40 bg-slate-900/50";
const PANEL =
  "fixed inset-x-0 bottom-0 z-50 max-h-[92dvh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl " +
  "sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-[calc(100%-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:p-6";

/** A modal dialog with a title, a close button and whatever it holds. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  wide = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={OVERLAY} />
        <RadixDialog.Content
          data-sheet="bottom"
          onPointerDownOutside={(event) => fromToast(event) && event.preventDefault()}
          className={`${PANEL} ${wide ? "sm:max-w-2xl" : "sm:max-w-lg"}`}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="mb-4 flex items-start justify-between gap-3">
            <RadixDialog.Title className="min-w-0 text-lg font-semibold break-words text-slate-900">
              {title}
            </RadixDialog.Title>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close" className="-mt-1 -mr-2">
                <CloseIcon />
              </Button>
            </RadixDialog.Close>
          </div>
          {description && (
            <RadixDialog.Description className="mb-4 text-sm text-slate-600">
              {description}
            </RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * Asks before something that cannot be undone. The confirm button runs `onConfirm`; the dialog closes
 * when it succeeds (unless it answers `false`: it has asked something new) and shows the failure otherwise.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<boolean | void> | boolean | void;
  /** More to say or ask (for example a name to type before deleting an account). */
  children?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      if ((await onConfirm()) !== false) onOpenChange(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={OVERLAY} />
        <AlertDialog.Content data-sheet="bottom" className={`${PANEL} sm:max-w-md`}>
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">{description}</div>
          </AlertDialog.Description>
          {children}
          <ErrorMessage error={error} className="mt-4" />
          <form
            className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
            onSubmit={(event) => {
              event.preventDefault();
              void confirm();
            }}
          >
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button type="submit" variant="danger" disabled={busy}>
              {confirmLabel}
            </Button>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
