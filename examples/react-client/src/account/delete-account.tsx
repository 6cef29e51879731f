import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { signOut } from "../auth/session";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { Field, inputClass } from "../ui/field";
import { Card } from "../ui/page";

type User = components["schemas"]["User"];

/** Deleting the account: says what goes with it, and asks for the username before it does it. */
export function DeleteAccount({ user, userId }: { user: User; userId: number }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");

  async function remove() {
    if (typed.trim() !== user.username) throw new Error(`Type ${user.username} to confirm.`);
    await unwrap(api.POST("/api/users/{id}/delete", { params: { path: { id: userId } } }));
    signOut("Your account and everything in it are deleted.");
  }

  return (
    <Card
      title="Delete account"
      tone="danger"
      description="Erases your account and everything in it. This can't be undone."
    >
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete account…
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setTyped("");
        }}
        title="Delete your account?"
        description={
          <>
            <p>This erases, at once and for good:</p>
            <ul className="list-disc space-y-1 pl-5">
              <li>your todos and their attachments;</li>
              <li>your files, and every share link to them;</li>
              <li>your API keys, your sign-ins on every device and your connected apps.</li>
            </ul>
          </>
        }
        confirmLabel="Delete my account"
        onConfirm={remove}
      >
        <Field label={`Type ${user.username} to confirm`} className="mt-4">
          <input
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            className={inputClass}
          />
        </Field>
      </ConfirmDialog>
    </Card>
  );
}
