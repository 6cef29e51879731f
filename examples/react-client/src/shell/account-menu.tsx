import { logOut } from "../auth/refresh";
import type { Session } from "../auth/session";
import { API_ORIGIN } from "../config";
import { SCREENS } from "../screens";
import { Button } from "../ui/button";
import { ChevronIcon } from "../ui/icons";
import { Menu } from "../ui/menu";
import { navigate } from "../ui/use-hash-route";

/** Who is signed in (and to which service), the account screens, and Sign out. */
export function AccountMenu({ session }: { session: Session }) {
  const host = new URL(API_ORIGIN).host;
  return (
    <div className="ml-auto">
      <Menu
        label={
          <>
            Signed in as <strong className="font-semibold">{session.username}</strong>
            <span className="block text-xs">on {host}</span>
          </>
        }
        trigger={
          <Button variant="ghost">
            <span
              aria-hidden="true"
              className="grid size-7 place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white uppercase"
            >
              {session.username.slice(0, 1)}
            </span>
            <span className="sr-only">Account: </span>
            <span className="sr-only max-w-40 truncate sm:not-sr-only">{session.username}</span>
            <ChevronIcon />
          </Button>
        }
        items={[
          ...SCREENS.filter((screen) => screen.menu === "account").map((screen) => ({
            label: screen.label,
            onSelect: () => navigate(screen.path),
          })),
          "separator" as const,
          { label: "Sign out", onSelect: () => void logOut() },
        ]}
      />
    </div>
  );
}
