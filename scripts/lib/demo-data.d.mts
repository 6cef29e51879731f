export const DEMO: { username: string; password: string; name: string; email: string };
type Counts = Record<"files" | "todos" | "chats", number>;
export function seedDemo(url: string): Promise<{ added: Counts; total: Counts }>;
