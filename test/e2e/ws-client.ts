// A raw WebSocket client for Node tests and benchmarks: every frame parsed and timed, waits always bounded.
export interface NodeSocket {
  ws: WebSocket;
  frames: { at: number; data: any }[];
  send(message: unknown): void;
  waitFor(
    match: (data: any) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<{ at: number; data: any }>;
  rpc(method: string, args?: unknown[]): Promise<{ success: boolean; result?: any; error?: string }>;
  close(): Promise<void>;
}

let seq = 0;

export function openSocket(url: string, timeoutMs = 10_000): Promise<NodeSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: NodeSocket["frames"] = [];
    const waiters = new Set<() => void>();
    const timer = setTimeout(() => reject(new Error(`connect to ${url} timed out`)), timeoutMs);
    ws.addEventListener("message", (event) => {
      frames.push({ at: performance.now(), data: JSON.parse(String(event.data)) });
      for (const wake of waiters) wake();
    });
    ws.addEventListener("error", () => reject(new Error(`WebSocket error on ${url}`)));
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      const socket: NodeSocket = {
        ws,
        frames,
        send: (message) => ws.send(JSON.stringify(message)),
        waitFor(match, waitMs = 10_000, from = 0) {
          return new Promise((res, rej) => {
            const check = () => {
              for (let i = from; i < frames.length; i++) {
                if (!match(frames[i]!.data)) continue;
                waiters.delete(check);
                clearTimeout(t);
                res(frames[i]!);
                return;
              }
            };
            const t = setTimeout(() => {
              waiters.delete(check);
              rej(
                new Error(
                  `no matching frame in ${waitMs} ms; last: ${JSON.stringify(frames.slice(-3).map((f) => f.data))}`,
                ),
              );
            }, waitMs);
            waiters.add(check);
            check();
          });
        },
        async rpc(method, args = []) {
          const id = `n${++seq}`;
          const from = frames.length;
          socket.send({ type: "rpc", id, method, args });
          return (await socket.waitFor((d) => d?.type === "rpc" && d.id === id, 10_000, from)).data;
        },
        close: () =>
          new Promise((res) => {
            if (ws.readyState === WebSocket.CLOSED) return res();
            ws.addEventListener("close", () => res());
            ws.close(1000);
          }),
      };
      resolve(socket);
    });
  });
}
