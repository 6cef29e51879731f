import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { IdParams, PageQuery } from "../../core/paging";
import { keyAccess } from "../../http/route-access";
import {
  CreateUserBody,
  DeletedUserSchema,
  MeSchema,
  UpdateUserBody,
  UserPageSchema,
  UserSchema,
  UserViewSchema,
} from "./users.schemas";

const tags = ["Users"];

export const list = createRoute({
  operationId: "listUsers",
  method: "get",
  path: "/api/users",
  tags,
  summary: "List users, paged",
  description: "Yourself alone, with your full profile; admins list every user.",
  request: { query: PageQuery },
  responses: {
    200: okContent(UserPageSchema, "One page of users, by id"),
    ...errorResponses(400, 401),
  },
});

export const create = createRoute({
  operationId: "createUser",
  method: "post",
  path: "/api/users",
  tags,
  summary: "Create a user (admins only)",
  description: "Admins create accounts with a password and an optional role (`user` unless given).",
  request: { body: jsonBody(CreateUserBody) },
  responses: {
    201: okContent(UserSchema, "The new user"),
    ...errorResponses(400, 401, 403, 409, 413),
  },
});

export const getOne = createRoute({
  operationId: "getUser",
  method: "get",
  path: "/api/users/{id}",
  tags,
  summary: "Read a user",
  description: "Your own full profile; another user's is 404 unless you are an admin, who reads anyone's.",
  request: { params: IdParams },
  responses: {
    200: okContent(UserViewSchema, "The user"),
    ...errorResponses(400, 401, 404),
  },
});

export const update = createRoute({
  operationId: "updateUser",
  method: "post",
  path: "/api/users/{id}",
  tags,
  summary: "Update a user (yourself, or anyone as an admin)",
  description:
    "Only admins change `role`. Changing your own password or e-mail needs `currentPassword`. " +
    "A new `email` does not replace the address at once: it becomes `pendingEmail`, a link goes to it " +
    "(`POST /api/auth/email/confirm` uses it) and the current address is told what is changing; the " +
    "answer is then 202, with the other changes of the request applied. Sending the current `email` " +
    "cancels a pending change. Another user's id answers 403 for non-admins.",
  request: { params: IdParams, body: jsonBody(UpdateUserBody) },
  responses: {
    200: okContent(UserSchema, "The updated user"),
    202: okContent(
      UserSchema,
      "Updated; the new e-mail address waits for its link to be used (`pendingEmail`)",
    ),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429, 503),
  },
});

export const remove = createRoute({
  operationId: "removeUser",
  method: "post",
  path: "/api/users/{id}/delete",
  tags,
  summary: "Delete a user (yourself, or anyone as an admin)",
  description:
    "Their todos, attachment metadata and file records go with them, and their files are erased from R2 " +
    "(in this request for up to 100, else by the hourly cron), unfinished resumable uploads included. " +
    "Teams the account owns alone go with it; one it owns with other members makes this 409, naming " +
    "the teams, until their ownership moves or they are deleted. Another user's id answers 403 for non-admins.",
  request: { params: IdParams },
  responses: {
    200: okContent(DeletedUserSchema, "The id of the deleted user"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export const me = createRoute({
  operationId: "getMe",
  method: "get",
  path: "/api/me",
  tags,
  summary: "Who you are, and what you signed in with",
  description:
    "Your full profile and the credential of this request. Any API key may call it, whatever its " +
    "scopes, so a script can check whose key it holds and what the key may do.",
  ...keyAccess(),
  responses: {
    200: okContent(MeSchema, "Your profile and credential"),
    ...errorResponses(401, 404),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetOneRoute = typeof getOne;
export type UpdateRoute = typeof update;
export type RemoveRoute = typeof remove;
export type MeRoute = typeof me;
