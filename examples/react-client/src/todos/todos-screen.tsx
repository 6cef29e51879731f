import { useState } from "react";
import type { Session } from "../auth/session";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { plural } from "../ui/format";
import { Badge, Card, EmptyState, Page } from "../ui/page";
import { TodoCreateForm } from "./todo-create-form";
import { TodoDetail } from "./todo-detail";
import { TodoRow } from "./todo-row";
import { useMyTeams } from "../workspace/use-my-teams";
import { ReadOnlyNotice } from "../workspace/read-only-notice";
import { WorkspaceSwitcher } from "../workspace/workspace-switcher";
import { TeamPresence } from "./team-presence";
import { useAttachmentCounts } from "./use-attachment-counts";
import type { TodoSummary } from "./types";
import { useTodoList, type Filter } from "./use-todo-list";

const FILTERS: { value: Filter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "open", label: "Open" },
  { value: "done", label: "Done" },
];

/**
 * The todos, yours or a team's (the switcher, shared with Files): a form to add one, the list (live),
 * and a dialog to edit one. A team's viewer sees them read-only, told why.
 */
export function TodosScreen({ session }: { session: Session }) {
  const workspace = useMyTeams();
  const { team, orgId } = workspace;
  const readOnly = team?.role === "viewer";
  const todos = useTodoList(session.userId, orgId);
  const attachments = useAttachmentCounts(todos.items);
  const [open, setOpen] = useState<TodoSummary | null>(null);
  const { list } = todos;

  return (
    <Page
      title="Todos"
      description="What you have to do, with the files that go with it. Changes from other tabs, teammates, the chat and connected apps show here at once."
      actions={
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <WorkspaceSwitcher teams={workspace.teams} orgId={orgId} />
          <span aria-label="Live updates">
            {todos.live ? <Badge tone="success">live</Badge> : <Badge>offline</Badge>}
          </span>
        </div>
      }
    >
      {team && <TeamPresence online={todos.online} live={todos.live} />}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:items-start">
        {readOnly ? (
          <ReadOnlyNotice what="todos" />
        ) : (
          <TodoCreateForm key={orgId ?? "personal"} orgId={orgId} onCreated={attachments.remember} />
        )}
        <Card
          title={team ? `${team.name}'s todos` : "Your todos"}
          description={list ? plural(list.total, "todo") : undefined}
          actions={
            <div role="group" aria-label="Show" className="flex rounded-lg border border-slate-300 p-0.5">
              {FILTERS.map(({ value, label }) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={todos.filter === value}
                  onClick={() => {
                    todos.setFilter(value);
                    todos.setPage(1);
                  }}
                  className={`min-h-8 rounded-md px-3 text-sm font-medium ${
                    todos.filter === value ? "bg-slate-800 text-white" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  {label}
                </button>
              ))}
            </div>
          }
        >
          <div>
            <ErrorMessage error={todos.error} />
            {list && todos.items.length === 0 && (
              <EmptyState title={todos.filter === "all" ? "Nothing here yet." : `No ${todos.filter} todos.`}>
                {todos.filter === "all" && "Add your first todo with the form."}
              </EmptyState>
            )}
            <ul className="todo-list divide-y divide-slate-100">
              {todos.items.map((todo) => (
                <TodoRow
                  key={todo.id}
                  todo={todo}
                  attachments={attachments.count(todo)}
                  readOnly={readOnly}
                  onToggle={(completed) => void todos.toggle(todo, completed)}
                  onOpen={() => setOpen(todo)}
                />
              ))}
            </ul>
            {list && list.totalPages > 1 && (
              <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-2">
                <Button size="sm" disabled={todos.page <= 1} onClick={() => todos.setPage(todos.page - 1)}>
                  Previous
                </Button>
                <span aria-live="polite" className="text-sm text-slate-700">
                  Page {list.page} of {list.totalPages}
                </span>
                <Button
                  size="sm"
                  disabled={todos.page >= list.totalPages}
                  onClick={() => todos.setPage(todos.page + 1)}
                >
                  Next
                </Button>
              </nav>
            )}
          </div>
        </Card>
      </div>
      {open && (open.orgId ?? null) === orgId && (
        <TodoDetail
          key={open.id}
          summary={open}
          readOnly={readOnly}
          remote={todos.remote?.id === open.id ? todos.remote : null}
          onLoaded={attachments.remember}
          onChanged={() => void todos.refresh()}
          onDelete={(todo) => {
            setOpen(null);
            void todos.remove(todo);
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </Page>
  );
}
