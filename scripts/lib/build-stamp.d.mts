export function writeStamp(root: string, stampPath: string, paths: string[], options: unknown): void;
export function upToDate(root: string, stampPath: string, options: unknown): boolean;
