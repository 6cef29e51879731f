/** What a team's viewer is told instead of the controls the service would refuse them (403). */
export function ReadOnlyNotice({ what }: { what: "todos" | "files" }) {
  return (
    <p role="note" className="rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950">
      You can view this team's {what}; ask an admin to make you a member to edit.
    </p>
  );
}
