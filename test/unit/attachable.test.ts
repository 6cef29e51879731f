// docs/security.md F11: a private object attaches only to todos of its own owner.
import { describe, expect, it } from "vitest";
import { orgOwner, userOwner } from "../../src/core/owner";
import { mayAttachTo } from "../../src/files/attachable";
import { objectMetadata } from "../../src/files/visibility";

const object = (customMetadata: Record<string, string>) => ({ customMetadata });

describe("mayAttachTo", () => {
  it("lets any todo attach a public object", () => {
    const publicFile = object(objectMetadata("a.txt", "public", userOwner(1)));
    expect(mayAttachTo(publicFile, userOwner(2))).toBe(true);
    expect(mayAttachTo(publicFile, orgOwner(3))).toBe(true);
  });

  it("lets a private object attach only to todos of its owner, user or team", () => {
    const mine = object(objectMetadata("a.txt", "private", userOwner(1)));
    const team = object(objectMetadata("a.txt", "private", orgOwner(1)));
    expect([mine, team].map((o) => mayAttachTo(o, userOwner(1)))).toEqual([true, false]);
    expect([mine, team].map((o) => mayAttachTo(o, orgOwner(1)))).toEqual([false, true]);
    expect(mayAttachTo(team, orgOwner(2))).toBe(false);
  });

  it("lets no todo attach a private object whose owner it cannot read", () => {
    for (const owner of ["", "org-", "team-1", "0", "user-1x"]) {
      const unreadable = object({ originalName: "a", visibility: "private", owner });
      expect(mayAttachTo(unreadable, userOwner(1))).toBe(false);
    }
  });
});
