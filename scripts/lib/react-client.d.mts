export const CLIENT_DIR: string;
export const SERVED_BUILD: string;
export const TYPES_ARGS: string[];
export function ensureClientInstalled(options?: { quiet?: boolean }): void;
export function typecheckClient(): Promise<string>;
export function buildClient(options: {
  apiOrigin?: string;
  outDir: string;
  agentsAuth?: boolean;
}): Promise<string>;
export function buildServedClient(options?: { agentsAuth?: boolean }): Promise<boolean>;
export function startPreview(options: {
  outDir: string;
  port: number;
}): Promise<{ /** The page: http://127.0.0.1:<port>/app/ */ url: string; stop(): Promise<void> }>;
