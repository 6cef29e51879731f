// A team's writes on its members' live feeds: the socket each member already opens carries them, names
// the team, reaches no one else, stops at a member's removal, and tells who of the team is online.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { signUp } from "../helpers/auth";
import { feedStorage, WIPED } from "../helpers/chats";
import { injected, withFaults } from "../helpers/faults";
import { awaitEvent, isTodoEvent, openFeed } from "../helpers/feed";
import { api } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { createTeam, join, teamOfFour } from "../helpers/orgs";
import { countEverywhere } from "../helpers/shards";
import { createTodo, updated } from "../helpers/todos";
import type { TestSocket } from "../helpers/ws";

const teamEvent = (
  socket: TestSocket,
  orgId: number,
  since: number,
  expected: { type: string; id: number; version: number },
) =>
  socket
    .waitFor(
      (d) =>
        d?.orgId === orgId &&
        d.type === expected.type &&
        d.id === expected.id &&
        d.version === expected.version,
    )
    .then((frame) => frame.at - since);

/** The presence frame of `orgId` listing exactly `ids`, from frame index `from`. */
const presence = (socket: TestSocket, orgId: number, ids: number[], from = 0) =>
  socket.waitFor(
    (d) =>
      d?.type === "presence" &&
      d.orgId === orgId &&
      JSON.stringify(d.online.map((m: { id: number }) => m.id)) ===
        JSON.stringify(ids.toSorted((a, b) => a - b)),
    { from },
  );

describe("the live feed of a team's todos", () => {
  it("carries a team write to every connected member within 1 s, naming the team, and to no outsider", async () => {
    const [{ org, owner, admin, member, viewer }, outsider] = await Promise.all([teamOfFour(), signUp()]);
    const feeds = await Promise.all([owner, admin, member, viewer, outsider].map(openFeed));
    const [, , , , outsiderFeed] = feeds;
    // Each member's feed has subscribed once it heard its team's presence.
    await Promise.all(feeds.slice(0, 4).map((feed) => feed.waitFor((d) => d?.type === "presence")));
    const todo = await createTodo(member, { title: "Shared", orgId: org.id });
    const since = performance.now();
    for (const feed of feeds.slice(0, 4)) {
      expect(
        await teamEvent(feed, org.id, since, { type: "todo.created", id: todo.id, version: 1 }),
      ).toBeLessThan(1_000);
    }
    await updated(admin, todo.id, { completed: true });
    await teamEvent(feeds[3]!, org.id, performance.now(), { type: "todo.updated", id: todo.id, version: 2 });
    // The outsider's own write comes through after the team's: had the team's reached them, it would be first.
    const own = await createTodo(outsider, { title: "Mine" });
    await awaitEvent(outsiderFeed!, { type: "todo.created", id: own.id, version: 1 }, performance.now());
    expect(outsiderFeed!.frames.map((f) => f.data).filter(isTodoEvent)).toEqual([
      { type: "todo.created", id: own.id, version: 1 },
    ]);
    expect(outsiderFeed!.frames.some((f) => f.data?.type === "presence")).toBe(false);
    for (const feed of feeds) feed.close();
  });

  it("stops at once for a member removed mid-session, who is told; the others carry on", async () => {
    const { org, owner, member } = await teamOfFour();
    const [ownerFeed, memberFeed] = await Promise.all([openFeed(owner), openFeed(member)]);
    await presence(ownerFeed, org.id, [owner.userId, member.userId]);
    const removed = await api(`/api/orgs/${org.id}/members/${member.userId}/delete`, {
      method: "POST",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    // By the removal's answer the member's feed has been told, and the owner sees them gone.
    await memberFeed.waitFor((d) => d?.type === "team.left" && d.orgId === org.id, { timeoutMs: 1_000 });
    await presence(ownerFeed, org.id, [owner.userId]);
    const todo = await createTodo(owner, { title: "After the removal", orgId: org.id });
    await teamEvent(ownerFeed, org.id, performance.now(), { type: "todo.created", id: todo.id, version: 1 });
    // A write of the member's own, after the team's, reaches them; the team's never did.
    const own = await createTodo(member, { title: "Still mine" });
    await awaitEvent(memberFeed, { type: "todo.created", id: own.id, version: 1 }, performance.now());
    expect(memberFeed.frames.some((f) => f.data?.orgId === org.id && isTodoEvent(f.data))).toBe(false);
    ownerFeed.close();
    memberFeed.close();
  });

  it("tells each member who of the team is connected, as members come and go", async () => {
    const [a, b] = await Promise.all([signUp(), signUp()]);
    const org = await createTeam(a.token);
    await join(a, org.id, b, "viewer");
    const aFeed = await openFeed(a);
    await presence(aFeed, org.id, [a.userId]);
    const from = aFeed.frames.length;
    const bFeed = await openFeed(b);
    const online = await presence(bFeed, org.id, [a.userId, b.userId]);
    expect(online.data.online).toEqual(
      [
        { id: a.userId, username: a.username },
        { id: b.userId, username: b.username },
      ].toSorted((x, y) => x.id - y.id),
    );
    await presence(aFeed, org.id, [a.userId, b.userId], from);
    // A second tab of b's changes nobody's presence; closing one of two leaves b online.
    const bTab2 = await openFeed(b);
    await presence(bTab2, org.id, [a.userId, b.userId]);
    bTab2.close();
    bFeed.close();
    await presence(aFeed, org.id, [a.userId], aFeed.frames.length);
    aFeed.close();
  });

  it("starts to carry a team the user joins while connected", async () => {
    const [owner, newcomer] = await Promise.all([signUp(), signUp()]);
    const org = await createTeam(owner.token);
    const feed = await openFeed(newcomer);
    await join(owner, org.id, newcomer, "member");
    await presence(feed, org.id, [newcomer.userId]);
    const todo = await createTodo(owner, { title: "Welcome", orgId: org.id });
    await teamEvent(feed, org.id, performance.now(), { type: "todo.created", id: todo.id, version: 1 });
    feed.close();
  });
});

const runCron = () => worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);

/** Wipes queued for a feed: in its team's data database, or the directory's for a legacy workspace. */
function queuedWipesOf(name: string): Promise<number> {
  return countEverywhere("SELECT count(*) AS n FROM pending_agent_wipes_table WHERE name = ?", name);
}

describe("deleting a team erases its feed", () => {
  it("wipes the team's feed before the answer, and its listeners are told", async () => {
    const { org, owner, member } = await teamOfFour();
    const memberFeed = await openFeed(member);
    await presence(memberFeed, org.id, [member.userId]);
    expect((await feedStorage(`org-${org.id}`)).rows).toMatchObject({ team_listeners: 1 });
    const gone = await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: owner.token });
    expect(gone.status).toBe(200);
    await memberFeed.waitFor((d) => d?.type === "team.left" && d.orgId === org.id, { timeoutMs: 1_000 });
    expect(await feedStorage(`org-${org.id}`)).toEqual(WIPED);
    expect(await queuedWipesOf(`org-${org.id}`)).toBe(0);
    memberFeed.close();
  });

  it("keeps a wipe that fails during the delete queued; the cron wipes it and tells the listeners", async () => {
    const { org, owner, member } = await teamOfFour();
    const name = `org-${org.id}`;
    const memberFeed = await openFeed(member);
    await presence(memberFeed, org.id, [member.userId]);
    const TodoFeedAgent = withFaults(env.TodoFeedAgent, {
      getByName: (feed: string) =>
        feed === name ? ({ wipe: () => injected("wipe") } as never) : env.TodoFeedAgent.getByName(feed),
    });
    const res = await fetchWithEnv(
      `/api/orgs/${org.id}/delete`,
      { method: "POST", token: owner.token },
      { TodoFeedAgent },
    );
    expect(res.status).toBe(200);
    expect(await queuedWipesOf(name)).toBe(1);
    expect((await feedStorage(name)).rows).toMatchObject({ team_listeners: 1 });
    await runCron();
    expect(await queuedWipesOf(name)).toBe(0);
    expect(await feedStorage(name)).toEqual(WIPED);
    await memberFeed.waitFor((d) => d?.type === "team.left" && d.orgId === org.id, { timeoutMs: 1_000 });
    memberFeed.close();
  });

  it("queues the feed of a team that goes with its owner's account", async () => {
    const owner = await signUp();
    const org = await createTeam(owner.token);
    const ownerFeed = await openFeed(owner);
    await presence(ownerFeed, org.id, [owner.userId]);
    const todo = await createTodo(owner, { title: "Kept by the feed", orgId: org.id });
    await teamEvent(ownerFeed, org.id, performance.now(), { type: "todo.created", id: todo.id, version: 1 });
    ownerFeed.close();
    expect((await feedStorage(`org-${org.id}`)).rows).toMatchObject({ feed_events: 1 });
    const gone = await api(`/api/users/${owner.userId}/delete`, { method: "POST", token: owner.token });
    expect(gone.status).toBe(200);
    expect(await queuedWipesOf(`org-${org.id}`)).toBe(0);
    expect(await feedStorage(`org-${org.id}`)).toEqual(WIPED);
  });
});
