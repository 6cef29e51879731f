// The Durable Object classes, exported by the Worker's entry so wrangler can bind them.
export { ChatAgent } from "./chat-agent";
export { CounterAgent, type CounterState } from "./counter-agent";
export { TodoFeedAgent, type FeedEvent, type FeedPage } from "./todo-feed-agent";
