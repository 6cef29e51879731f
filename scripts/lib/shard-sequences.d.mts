export const SHARD_ID_SPAN: number;
export const AUTOINCREMENT_TABLES: string[];
export function shardNumber(binding: string): number | null;
export function shardSequenceStatements(n: number): string[];
