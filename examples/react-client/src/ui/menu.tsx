import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

/** A menu of actions behind one button (keyboard and screen reader behaviour from Radix). */
export function Menu({
  trigger,
  items,
  label,
  align = "end",
}: {
  /** Says whose menu it is, above the items. */
  label?: ReactNode;
  /** The button that opens it: must forward its ref and props (a `<Button>` or `<button>`). */
  trigger: ReactNode;
  items: (MenuItem | "separator")[];
  align?: "start" | "end";
}) {
  return (
    // Not modal: a modal menu hides the page from screen readers while focus can still reach it.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={align}
          sideOffset={6}
          collisionPadding={8}
          className="z-50 min-w-48 rounded-xl border border-slate-200 bg-white p-1 text-sm shadow-lg"
        >
          {label && (
            <>
              <DropdownMenu.Label className="px-3 py-2 text-sm break-words text-slate-700">
                {label}
              </DropdownMenu.Label>
              <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            </>
          )}
          {items.map((item, index) =>
            item === "separator" ? (
              <DropdownMenu.Separator key={index} className="my-1 h-px bg-slate-200" />
            ) : (
              <DropdownMenu.Item
                key={item.label}
                onSelect={item.onSelect}
                className={`flex min-h-9 cursor-pointer items-center rounded-lg px-3 outline-none select-none data-highlighted:bg-slate-100 ${item.danger ? "text-red-700" : "text-slate-800"}`}
              >
                {item.label}
              </DropdownMenu.Item>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
