export const ROOT: string;
export function freePort(): Promise<number>;
/** A free loopback port held by a listener until `release()`. */
export function reservePort(): Promise<{ port: number; release: () => Promise<void> }>;
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
  /** Start it as `npm run dev` does (the config's LOG_LEVEL, default address, non-CI wrangler). */
  asNpmRunDev?: boolean;
  /** Read the .dev.vars beside `config`, as wrangler dev does (default: ignore it). */
  devVars?: boolean;
}): Promise<WranglerDev>;
