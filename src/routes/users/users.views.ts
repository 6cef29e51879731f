import type { AuthUser } from "../../auth/credentials";
import type { UserRow } from "../../auth/users.queries";

/** What any signed-in user may see of another user. */
export function publicView(user: UserRow) {
  return { id: user.id, username: user.username, name: user.name, createdAt: user.createdAt };
}

/** The full profile, for oneself and admins: everything but the lookup key and the token and grant versions; whether the address is proven. */
export function fullView({
  usernameKey: _key,
  tokenVersion: _version,
  grantVersion: _grants,
  emailVerifiedAt,
  ...user
}: UserRow) {
  return { ...user, emailVerified: emailVerifiedAt !== null };
}

/** What `viewer` may see of `user`. */
export function userView(user: UserRow, viewer: AuthUser) {
  return viewer.role === "admin" || viewer.id === user.id ? fullView(user) : publicView(user);
}
