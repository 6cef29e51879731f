import { mountAgents } from "./agents/mount";
import { mountClientApp } from "./http/client-app";
import { apiCors } from "./http/cors";
import { configureOpenAPI } from "./http/openapi-doc";
import { createApp } from "./http/create-app";
import { d1Session } from "./http/d1-session";
import { mountMcp } from "./mcp/mount";
import { mountOAuth } from "./oauth/mount";
import { jsonBodyGuard } from "./http/json-body";
import { apiSecurityHeaders } from "./http/security-headers";
import { requireAuth } from "./http/require-auth";
import { settingsGuard } from "./http/settings-guard";
import { adminWorkspacesRouter } from "./routes/admin-workspaces/admin-workspaces.index";
import { agentsRouter } from "./routes/agents/agents.index";
import { aiRouter } from "./routes/ai/ai.index";
import { auditRouter } from "./routes/audit/audit.index";
import { authRouter, signOutRouter } from "./routes/auth/auth.index";
import { chatsRouter } from "./routes/chats/chats.index";
import { emailConfirmRouter, emailVerifyRouter } from "./routes/email/email.index";
import { healthRouter } from "./routes/health/health.index";
import { invitationsRouter } from "./routes/invitations/invitations.index";
import { keysRouter } from "./routes/keys/keys.index";
import { notesRouter } from "./routes/notes/notes.index";
import { passkeySignInRouter, passkeysRouter } from "./routes/passkeys/passkeys.index";
import { orgMembersRouter } from "./routes/org-members/org-members.index";
import { orgsRouter } from "./routes/orgs/orgs.index";
import { oauthGrantsRouter } from "./routes/oauth-grants/oauth-grants.index";
import { passwordResetRouter } from "./routes/password-reset/password-reset.index";
import { sessionsRouter } from "./routes/sessions/sessions.index";
import { downloadsRouter } from "./routes/downloads/downloads.index";
import { fileLinksRouter } from "./routes/file-links/file-links.index";
import { filesRouter } from "./routes/files/files.index";
import { todosRouter } from "./routes/todos/todos.index";
import { uploadsRouter } from "./routes/uploads/uploads.index";
import { usageRouter } from "./routes/usage/usage.index";
import { usersRouter } from "./routes/users/users.index";

const app = createApp();

app.use(settingsGuard);
app.use("/api/*", apiSecurityHeaders);
app.use("/api/*", apiCors);
configureOpenAPI(app);
mountClientApp(app);
mountAgents(app);
mountMcp(app);
mountOAuth(app);
// One D1 session per request, used by the token check too; the token is checked before any body is read.
// Public paths, API keys' access and streamed bodies are read from each route's own declaration.
app.use("/api/*", d1Session, requireAuth(app), jsonBodyGuard(app));

app
  .route("/", healthRouter)
  .route("/", aiRouter)
  .route("/", authRouter)
  .route("/", passwordResetRouter)
  .route("/", emailConfirmRouter)
  .route("/", emailVerifyRouter)
  .route("/", passkeySignInRouter)
  .route("/", signOutRouter)
  .route("/", sessionsRouter)
  .route("/", keysRouter)
  .route("/", passkeysRouter)
  .route("/", oauthGrantsRouter)
  .route("/", usersRouter)
  .route("/", filesRouter)
  .route("/", fileLinksRouter)
  .route("/", downloadsRouter)
  .route("/", uploadsRouter)
  .route("/", todosRouter)
  .route("/", agentsRouter)
  .route("/", chatsRouter)
  .route("/", orgsRouter)
  .route("/", orgMembersRouter)
  .route("/", invitationsRouter)
  .route("/", auditRouter)
  .route("/", usageRouter)
  .route("/", notesRouter)
  .route("/", adminWorkspacesRouter);

export default app;
