import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { CloseIcon } from "../ui/icons";

/**
 * The chat list on narrow screens: a sheet from the left over the conversation, opened from the page's
 * "Chats" button (the list sits beside the conversation from `lg` up). Radix traps focus in it, closes
 * it on Escape and returns focus to the button.
 */
export function ChatsDrawer({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-[min(22rem,88vw)] flex-col gap-2 overflow-y-auto bg-slate-50 p-3 shadow-xl"
        >
          <div className="flex items-center justify-between gap-2">
            <RadixDialog.Title className="text-sm font-medium text-slate-700">Your chats</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close the chat list">
                <CloseIcon />
              </Button>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
