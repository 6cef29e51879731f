export function usernameKeyOf(input: string): string | null;
export function grantSql(key: string): string;
