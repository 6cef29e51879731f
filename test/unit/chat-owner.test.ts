import { describe, expect, it } from "vitest";
import { ownChatName, ownerIdFromChatName } from "../../src/auth/chat-names";

describe("ownerIdFromChatName", () => {
  it.each([
    ["user-7", 7],
    ["user-42-work", 42],
    ["user-42-a_b-c", 42],
    [ownChatName(9), 9],
  ])("%s belongs to user %i", (name, id) => {
    expect(ownerIdFromChatName(name)).toBe(id);
  });

  it.each([
    "user-",
    "user-0",
    "user-07",
    "user-1x",
    "users-1",
    "xuser-1",
    "user-1-",
    "t-123",
    "user-99999999999999999",
  ])("%s belongs to nobody", (name) => {
    expect(ownerIdFromChatName(name)).toBeNull();
  });
});
