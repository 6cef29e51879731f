import app from "./app";

export { ChatAgent, CounterAgent } from "./agents";
export type { AppType } from "./app";

export default app satisfies ExportedHandler<Env>;
