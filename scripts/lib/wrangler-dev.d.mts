export const ROOT: string;
export function freePort(): Promise<number>;
export interface WranglerDev {
  url: string;
  port: number;
  inspectorPort: number;
  persistTo: string;
  pid: number;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}
export function startWranglerDev(options?: {
  config?: string;
  persistTo?: string;
  port?: number;
  vars?: Record<string, string>;
  migrate?: boolean;
  readyPath?: string;
  timeoutMs?: number;
  /** wrangler's own per-request log lines off (default true) */
  quiet?: boolean;
}): Promise<WranglerDev>;
