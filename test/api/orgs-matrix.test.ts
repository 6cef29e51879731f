// The role-by-route matrix: every team route the document marks with `x-org-action`, called by each
// role and by a non-member, answers as the one table of roles (src/orgs/org-roles.ts) says. The same
// table drives the gate, so a route or a role added without a row here fails the first test.
import { beforeAll, describe, expect, it } from "vitest";
import document from "../../openapi.json";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api } from "../helpers/http";
import { createTeam, invite, join } from "../helpers/orgs";
import { can, ORG_ACTIONS, type OrgAction } from "../../src/orgs/org-roles";
import type { OrgRole } from "../../src/db/orgs-schema";

type Actor = OrgRole | "outsider";
const ACTORS: Actor[] = ["outsider", "viewer", "member", "admin", "owner"];

interface Cell {
  operationId: string;
  /** The action the answer depends on: the route's own, or one the table derives for this target. */
  action?: OrgAction;
  /** Statuses that mean "allowed" (state may make an allowed call a 404 or 409, never a 403). */
  allowed?: number[];
  request(orgId: number): Promise<{ method: string; path: string; json?: unknown }>;
}

let orgId: number;
const users = {} as Record<Actor | "tm1" | "tm2" | "ta", SignedUpUser>;

const fresh = () => `m-${crypto.randomUUID()}@example.test`;
const ensureMember = async (key: "tm1" | "tm2" | "ta", role: "member" | "admin") => {
  await api(`/api/orgs/${orgId}/members/${users[key].userId}/delete`, {
    method: "POST",
    token: users.owner.token,
  });
  await join(users.owner, orgId, users[key], role);
};

// In this order: reads first, then writes whose success others do not depend on, the delete last.
const CELLS: Cell[] = [
  { operationId: "getOrg", request: async (id) => ({ method: "GET", path: `/api/orgs/${id}` }) },
  {
    operationId: "listOrgMembers",
    request: async (id) => ({ method: "GET", path: `/api/orgs/${id}/members` }),
  },
  {
    operationId: "listOrgInvitations",
    request: async (id) => ({ method: "GET", path: `/api/orgs/${id}/invitations` }),
  },
  { operationId: "listOrgAudit", request: async (id) => ({ method: "GET", path: `/api/orgs/${id}/audit` }) },
  {
    operationId: "acceptOrgTransfer",
    allowed: [409],
    request: async (id) => ({ method: "POST", path: `/api/orgs/${id}/transfer/accept` }),
  },
  {
    operationId: "renameOrg",
    request: async (id) => ({ method: "POST", path: `/api/orgs/${id}`, json: { name: "Matrix" } }),
  },
  {
    operationId: "createOrgInvitation",
    request: async (id) => ({
      method: "POST",
      path: `/api/orgs/${id}/invitations`,
      json: { email: fresh() },
    }),
  },
  {
    operationId: "createOrgInvitation",
    action: "admins:manage",
    request: async (id) => ({
      method: "POST",
      path: `/api/orgs/${id}/invitations`,
      json: { email: fresh(), role: "admin" },
    }),
  },
  {
    operationId: "revokeOrgInvitation",
    request: async (id) => {
      const { invitation } = await invite(users.owner.token, id, fresh());
      return { method: "POST", path: `/api/orgs/${id}/invitations/${invitation.id}/revoke` };
    },
  },
  {
    operationId: "setOrgMemberRole",
    request: async (id) => ({
      method: "POST",
      path: `/api/orgs/${id}/members/${users.tm1.userId}`,
      json: { role: "viewer" },
    }),
  },
  {
    operationId: "setOrgMemberRole",
    action: "admins:manage",
    request: async (id) => {
      await ensureMember("tm2", "member");
      return { method: "POST", path: `/api/orgs/${id}/members/${users.tm2.userId}`, json: { role: "admin" } };
    },
  },
  {
    operationId: "removeOrgMember",
    action: "members:manage",
    request: async (id) => {
      await ensureMember("tm1", "member");
      return { method: "POST", path: `/api/orgs/${id}/members/${users.tm1.userId}/delete` };
    },
  },
  {
    operationId: "removeOrgMember",
    action: "admins:manage",
    request: async (id) => {
      await ensureMember("ta", "admin");
      return { method: "POST", path: `/api/orgs/${id}/members/${users.ta.userId}/delete` };
    },
  },
  {
    operationId: "offerOrgTransfer",
    request: async (id) => ({
      method: "POST",
      path: `/api/orgs/${id}/transfer`,
      json: { userId: users.member.userId },
    }),
  },
  {
    operationId: "cancelOrgTransfer",
    allowed: [409],
    request: async (id) => ({ method: "POST", path: `/api/orgs/${id}/transfer/cancel` }),
  },
  { operationId: "deleteOrg", request: async (id) => ({ method: "POST", path: `/api/orgs/${id}/delete` }) },
];

const documented = Object.values(document.paths as Record<string, Record<string, Record<string, unknown>>>)
  .flatMap((item) => Object.values(item))
  .filter((op) => typeof op["x-org-action"] === "string")
  .map((op) => ({ operationId: op.operationId as string, action: op["x-org-action"] as OrgAction }));

beforeAll(async () => {
  const names = ["owner", "admin", "member", "viewer", "outsider", "tm1", "tm2", "ta"] as const;
  const list = await Promise.all(names.map(() => signUp()));
  for (const [i, name] of names.entries()) users[name] = list[i]!;
  orgId = (await createTeam(users.owner.token)).id;
  await join(users.owner, orgId, users.admin, "admin");
  await join(users.owner, orgId, users.member, "member");
  await join(users.owner, orgId, users.viewer, "viewer");
  await join(users.owner, orgId, users.tm1, "member");
}, 30_000);

describe("Y2: role-by-route matrix", () => {
  it("has a row for every team route of the document, each naming an action of the table", () => {
    expect(documented.length).toBeGreaterThan(0);
    for (const op of documented) {
      expect(ORG_ACTIONS, op.operationId).toContain(op.action);
      expect(
        CELLS.map((cell) => cell.operationId),
        op.operationId,
      ).toContain(op.operationId);
    }
  });

  for (const cell of CELLS) {
    const label = `${cell.operationId}${cell.action ? ` (${cell.action})` : ""}`;
    it(`${label}: outsiders 404, roles as the table says`, async () => {
      const routeAction = documented.find((op) => op.operationId === cell.operationId)!.action;
      const answers: Record<string, number> = {};
      const expected: Record<string, number | string> = {};
      for (const actor of ACTORS) {
        const req = await cell.request(orgId);
        const res = await api(req.path, { method: req.method, token: users[actor].token, json: req.json });
        const allowed =
          actor !== "outsider" &&
          can(actor, routeAction) &&
          (cell.action === undefined || can(actor, cell.action));
        answers[actor] = res.status;
        if (actor === "outsider") expected[actor] = 404;
        else if (!allowed) expected[actor] = 403;
        else expected[actor] = [...(cell.allowed ?? []), 200, 201].includes(res.status) ? res.status : "2xx";
      }
      expect(answers).toEqual(expected);
    });
  }
});
