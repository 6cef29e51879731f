import { SCREENS } from "../screens";

/** The account screens side by side, so one is a tap from another (the account menu lists them too). */
export function AccountTabs({ current }: { current: string }) {
  return (
    <nav aria-label="Account">
      <ul className="flex flex-wrap gap-2">
        {SCREENS.filter((screen) => screen.menu === "account").map((screen) => (
          <li key={screen.path}>
            <a
              href={`#/${screen.path}`}
              aria-current={screen.path === current ? "page" : undefined}
              className={`inline-flex min-h-9 items-center rounded-full border px-3 text-sm font-medium ${
                screen.path === current
                  ? "border-slate-800 bg-slate-800 text-white"
                  : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
              }`}
            >
              {screen.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
