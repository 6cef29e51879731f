// The guide's pages in reading order: the README links them, the example test runs their shell blocks
// in this order after the README's, and /llms.txt lists their headings.
export const GUIDE_PAGES = [
  "docs/accounts.md",
  "docs/api-keys-and-oauth.md",
  "docs/teams.md",
  "docs/files.md",
  "docs/todos.md",
  "docs/agents.md",
  "docs/mcp.md",
  "docs/operations.md",
  "docs/architecture.md",
  "docs/development.md",
  "docs/tutorial.md",
  "docs/security.md",
];
