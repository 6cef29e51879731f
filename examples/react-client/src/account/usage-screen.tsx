import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { ErrorMessage } from "../ui/error-message";
import { plural } from "../ui/format";
import { Card, EmptyState, Page } from "../ui/page";
import { AccountTabs } from "./account-tabs";

type Usage = components["schemas"]["AiUsage"];

const tokens = (n: number) => `${n.toLocaleString()} ${n === 1 ? "token" : "tokens"}`;

function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/** A row of a breakdown: what, how many calls, and its output as a bar against the largest. */
function Row({ label, calls, output, max }: { label: string; calls: number; output: number; max: number }) {
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="min-w-0 break-words text-slate-900">{label}</span>
        <span className="text-sm text-slate-600">
          {tokens(output)} out · {plural(calls, "call")}
        </span>
      </div>
      <div className="mt-1 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
        <div
          className="h-1.5 rounded-full bg-orange-600"
          style={{ width: `${max > 0 ? Math.max(2, (output / max) * 100) : 0}%` }}
        />
      </div>
    </li>
  );
}

/** What the chat's model calls cost you this month (UTC), and today against your daily budget. */
export function UsageScreen() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    unwrap(api.GET("/api/ai/usage")).then(
      (data) => current && setUsage(data),
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, []);

  const maxDay = Math.max(0, ...(usage?.byDay.map((d) => d.outputTokens) ?? []));
  const maxChat = Math.max(0, ...(usage?.byChat.map((c) => c.outputTokens) ?? []));
  return (
    <Page title="AI usage" description="What the chat's answers and titles cost you, in model tokens.">
      <AccountTabs current="account/usage" />
      <ErrorMessage error={error} />
      {usage && (
        <>
          <Card
            title="Today"
            description="Output tokens over all your chats. The budget renews at midnight UTC."
          >
            <progress
              max={usage.today.budget}
              value={usage.today.outputTokens}
              aria-label="Today's budget used"
              className="h-2 w-full overflow-hidden rounded-full accent-orange-700"
            />
            <p className="mt-2 text-sm text-slate-700">
              {tokens(usage.today.outputTokens)} of {tokens(usage.today.budget)} · {tokens(usage.today.left)}{" "}
              left
            </p>
          </Card>
          <Card title="This month" description={`${dayLabel(usage.from)} to ${dayLabel(usage.to)} (UTC)`}>
            {usage.totals.calls === 0 ? (
              <EmptyState title="No model calls this month.">
                Ask something in Chat to see it here.
              </EmptyState>
            ) : (
              <dl aria-label="Totals" className="grid grid-cols-3 gap-3 text-center">
                {(
                  [
                    ["Calls", usage.totals.calls.toLocaleString()],
                    ["Tokens in", usage.totals.inputTokens.toLocaleString()],
                    ["Tokens out", usage.totals.outputTokens.toLocaleString()],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="rounded-lg bg-slate-50 px-2 py-3">
                    <dt className="text-xs text-slate-600">{label}</dt>
                    <dd className="text-lg font-semibold text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </Card>
          {usage.totals.calls > 0 && (
            <div className="grid gap-6 lg:grid-cols-2">
              <Card title="By chat">
                <ul aria-label="By chat" className="divide-y divide-slate-100">
                  {usage.byChat.map((chat) => (
                    <Row
                      key={chat.chatId}
                      label={chat.title ?? "Deleted chat"}
                      calls={chat.calls}
                      output={chat.outputTokens}
                      max={maxChat}
                    />
                  ))}
                </ul>
                {usage.moreChats > 0 && (
                  <p className="mt-2 text-sm text-slate-600">And {plural(usage.moreChats, "more chat")}.</p>
                )}
              </Card>
              <Card title="By day">
                <ul aria-label="By day" className="divide-y divide-slate-100">
                  {usage.byDay.map((day) => (
                    <Row
                      key={day.day}
                      label={dayLabel(day.day)}
                      calls={day.calls}
                      output={day.outputTokens}
                      max={maxDay}
                    />
                  ))}
                </ul>
              </Card>
              <Card title="By model" className="lg:col-span-2">
                <ul aria-label="By model" className="divide-y divide-slate-100">
                  {usage.byModel.map((model) => (
                    <Row
                      key={model.model}
                      label={model.model}
                      calls={model.calls}
                      output={model.outputTokens}
                      max={usage.totals.outputTokens}
                    />
                  ))}
                </ul>
              </Card>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
