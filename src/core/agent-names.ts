/** An agent instance's name: every new name persists a Durable Object, so names are short and plain. */
export const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
