import { lazy, type ComponentType } from "react";
import type { Session } from "./auth/session";
import { TodosScreen } from "./todos/todos-screen";

/**
 * Every signed-in screen, in one list: its URL (`#/<path>`), its label, and which menu links to it.
 * To add a screen, write a component that renders a `<Page>` (its h1 and document title) and add
 * it here; the navigation, the account menu and the browser tests' screen walk follow this list.
 */
export interface Screen {
  path: string;
  label: string;
  /** `main`: the top navigation; `account`: the account menu and the account tabs. */
  menu: "main" | "account";
  component: ComponentType<{ session: Session }>;
}

// Screens other than the first load their code when first opened (the agents bring the Agents SDK,
// the chat also the AI SDK and a Markdown renderer).
const load = <K extends string>(
  importer: () => Promise<Record<K, ComponentType<{ session: Session }>>>,
  name: K,
) => lazy(() => importer().then((module) => ({ default: module[name] })));

export const SCREENS: Screen[] = [
  { path: "todos", label: "Todos", menu: "main", component: TodosScreen },
  {
    path: "files",
    label: "Files",
    menu: "main",
    component: load(() => import("./files/files-screen"), "FilesScreen"),
  },
  {
    path: "chat",
    label: "Chat",
    menu: "main",
    component: load(() => import("./chats/chats-screen"), "ChatsScreen"),
  },
  {
    path: "counter",
    label: "Counter",
    menu: "main",
    component: load(() => import("./agents/counter-panel"), "CounterPanel"),
  },
  {
    path: "account",
    label: "Profile",
    menu: "account",
    component: load(() => import("./account/profile-screen"), "ProfileScreen"),
  },
  {
    path: "account/security",
    label: "Sign-in & security",
    menu: "account",
    component: load(() => import("./account/security-screen"), "SecurityScreen"),
  },
  {
    path: "account/keys",
    label: "API keys",
    menu: "account",
    component: load(() => import("./account/api-keys-screen"), "ApiKeysScreen"),
  },
  {
    path: "account/apps",
    label: "Connected apps",
    menu: "account",
    component: load(() => import("./apps/connected-apps"), "ConnectedApps"),
  },
  {
    path: "account/usage",
    label: "AI usage",
    menu: "account",
    component: load(() => import("./account/usage-screen"), "UsageScreen"),
  },
  {
    path: "account/teams",
    label: "Teams",
    menu: "account",
    component: load(() => import("./teams/teams-screen"), "TeamsScreen"),
  },
  {
    path: "account/notes",
    label: "Notes",
    menu: "account",
    component: load(() => import("./notes/notes-screen"), "NotesScreen"),
  },
];

// Older links keep working.
const ALIASES: Record<string, string> = { apps: "account/apps" };

/** The screen of a path; unknown paths open the todos. */
export function findScreen(path: string): Screen {
  const wanted = ALIASES[path] ?? path;
  return SCREENS.find((screen) => screen.path === wanted) ?? SCREENS[0]!;
}
