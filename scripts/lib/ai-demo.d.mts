/** The `--var` arguments that turn the offline demo model on, or none when a model (or AI_DEMO) is chosen. */
export function demoModelArgs(args: string[], devVars: string): string[];
