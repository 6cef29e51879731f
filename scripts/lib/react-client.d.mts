export const CLIENT_DIR: string;
export const TYPES_ARGS: string[];
export function ensureClientInstalled(): void;
export function typecheckClient(): Promise<string>;
export function buildClient(options: {
  apiOrigin: string;
  outDir: string;
  agentsAuth?: boolean;
}): Promise<string>;
export function startPreview(options: {
  outDir: string;
  port: number;
}): Promise<{ url: string; stop(): Promise<void> }>;
