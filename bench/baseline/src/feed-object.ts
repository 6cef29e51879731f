import { DurableObject } from "cloudflare:workers";

// The baseline's per-user live feed: what a bare Durable Object does for a todo write's event (keep
// the last 1,000, send it to every open socket), with no framework. `POST /todos?publish=1` calls it.
const KEPT = 1_000;

export class BaselineFeed extends DurableObject {
  private ready = false;

  async publish(event: { type: string; id: number; version: number }): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (!this.ready) {
      sql.exec(
        "CREATE TABLE IF NOT EXISTS feed_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)",
      );
      this.ready = true;
    }
    const json = JSON.stringify(event);
    sql.exec("INSERT INTO feed_events (event) VALUES (?)", json);
    sql.exec("DELETE FROM feed_events WHERE seq <= (SELECT max(seq) FROM feed_events) - ?", KEPT);
    for (const socket of this.ctx.getWebSockets()) socket.send(json);
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response(null, { status: 404 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }
}
