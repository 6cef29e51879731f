export { ChatAgent } from "./chat-agent";
export { CounterAgent, type CounterState } from "./counter-agent";
