export const OUTBOX_PATH: string;
export function waitUntilUp(url: string, stopped: () => boolean): Promise<{ up?: true; refused?: string }>;
export function devBanner(url: string): string;
