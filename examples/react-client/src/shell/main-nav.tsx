import { SCREENS } from "../screens";

/** The main screens: a row of four under the brand on phones, inline in the top bar from `sm` up. */
export function MainNav({ current }: { current: string }) {
  return (
    <nav aria-label="Main" className="order-last -mx-4 w-[calc(100%+2rem)] sm:order-none sm:mx-0 sm:w-auto">
      <ul className="grid grid-cols-4 sm:flex sm:gap-1">
        {SCREENS.filter((screen) => screen.menu === "main").map((screen) => {
          const active = current === screen.path;
          return (
            <li key={screen.path}>
              <a
                href={`#/${screen.path}`}
                aria-current={active ? "page" : undefined}
                className={`flex min-h-11 items-center justify-center border-b-2 px-3 text-sm font-medium sm:min-h-14 ${
                  active
                    ? "border-orange-700 text-orange-800"
                    : "border-transparent text-slate-700 hover:text-slate-900"
                }`}
              >
                {screen.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
