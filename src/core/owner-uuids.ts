import { orgOwner, userOwner, type Owner } from "./owner";

// A UUID that names its owner (RFC 9562 version 8, custom bits), so a key made with it finds its workspace
// with no lookup (issue 42): byte 8 holds the variant, the kind (bit 5: a team) and 5 random bits, bytes
// 9-15 the owner's id; the other 65 bits are random. Version 4 UUIDs (keys from before shards) carry none.
const OWNED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ORG_BIT = 0x20;
const ID_BYTES = 7;

/** A fresh UUID carrying `owner`. */
export function ownerUuid(owner: Owner): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = 0x80 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (owner.kind === "org" ? ORG_BIT : 0) | (bytes[8]! & 0x1f);
  let id = BigInt(owner.kind === "org" ? owner.orgId : owner.userId);
  for (let i = 15; i >= 16 - ID_BYTES; i--) {
    bytes[i] = Number(id & 0xffn);
    id >>= 8n;
  }
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The owner an ownerUuid() carries, or null (another UUID, or an id no owner can have). */
export function ownerOfUuid(uuid: string): Owner | null {
  if (!OWNED_UUID.test(uuid)) return null;
  const hex = uuid.replaceAll("-", "");
  const id = Number.parseInt(hex.slice(32 - 2 * ID_BYTES), 16);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return (Number.parseInt(hex.slice(16, 18), 16) & ORG_BIT) !== 0 ? orgOwner(id) : userOwner(id);
}
