export const DEFAULT_CONFIG: string;
export interface D1Database {
  binding: string;
  name: string;
  migrationsDir: string;
}
export function d1Databases(config?: string): D1Database[];
export function migrateArgs(
  binding: string,
  options?: { remote?: boolean; persistTo?: string; config?: string },
): string[];
export function migrateLocal(options?: {
  config?: string;
  persistTo?: string;
  env?: NodeJS.ProcessEnv;
  skipApplied?: boolean;
  onOutput?: (binding: string, output: string) => void;
}): Promise<Record<string, number>>;
export function describeApplied(counts: Record<string, number>): string;
export function sequenceArgs(
  binding: string,
  options?: { remote?: boolean; persistTo?: string; config?: string },
): string[] | null;
