// The Agents SDK's optional Cap'n Web WebSocket transport belongs to its WebSockets capability for
// plain Durable Objects; Agent subclasses (CounterAgent, ChatAgent) never select it. The build
// aliases the package to this stand-in: about 15 KiB of gzip off the bundle.

export function newWebSocketRpcSession(): never {
  throw new Error("The Cap'n Web transport is not bundled in this Worker");
}
