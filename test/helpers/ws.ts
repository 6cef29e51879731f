import { exports } from "cloudflare:workers";
import { freshIp } from "./client-ip";
import { BASE } from "./http";

/** A parsed frame with the time it arrived (performance.now()). */
export interface Frame {
  at: number;
  data: any;
}

export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  send(message: unknown): void;
  /** The first frame (from index `from`) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (data: any) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<Frame>;
  /** Resolves with the close code once the server or the client closed the socket. */
  closed: Promise<number>;
  close(): void;
}

/**
 * Upgrades through the Worker's own fetch handler, from a fresh client IP unless `headers` names one;
 * throws with the status when the upgrade is refused.
 */
export async function connectWS(path: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  const res = await exports.default.fetch(
    new Request(new URL(path, BASE), {
      headers: { Upgrade: "websocket", "CF-Connecting-IP": freshIp(), ...headers },
    }),
  );
  return acceptSocket(res);
}

/** Accepts the WebSocket of a 101 response; throws with the status when the upgrade was refused. */
export async function acceptSocket(res: Response): Promise<TestSocket> {
  const ws = res.webSocket;
  if (res.status !== 101 || !ws) throw new Error(`upgrade refused: ${res.status} ${await res.text()}`);
  ws.accept();
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (event) => {
    frames.push({
      at: performance.now(),
      data: typeof event.data === "string" ? JSON.parse(event.data) : event.data,
    });
    for (const wake of waiters) wake();
  });
  const closed = new Promise<number>((resolve) =>
    ws.addEventListener("close", (event) => resolve(event.code)),
  );
  return {
    ws,
    frames,
    closed,
    send: (message) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
    close: () => ws.close(1000, "done"),
    waitFor(match, { timeoutMs = 5_000, from = 0 } = {}) {
      return new Promise((resolve, reject) => {
        // Each frame is matched once: a rescan of every frame on each arrival made a socket with
        // thousands of frames and many waiters quadratic (50 clients x 20 increments: most of a minute).
        let next = from;
        const check = () => {
          let found: Frame | undefined;
          for (; next < frames.length && !found; next++) if (match(frames[next]!.data)) found = frames[next];
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.data)).slice(0, 500)}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}

let rpcSeq = 0;

/** Calls a @callable over the socket and resolves with the RPC response frame. */
export async function rpc(socket: TestSocket, method: string, args: unknown[] = []) {
  const id = `rpc-${++rpcSeq}`;
  socket.send({ type: "rpc", id, method, args });
  return (await socket.waitFor((data) => data?.type === "rpc" && data.id === id)).data as {
    success: boolean;
    result?: unknown;
    error?: string;
  };
}

/** A fresh instance name per test: storage is shared by every test in a file. */
export function freshName(prefix = "t"): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
