import { cloneElement, useId, type ComponentProps, type ReactElement, type ReactNode } from "react";

/** Text inputs, selects and text areas look alike; 16 px on phones so the browser does not zoom in. */
export const inputClass =
  "block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 disabled:bg-slate-100 sm:text-sm";

/** A labelled control with an optional hint (linked by aria-describedby, so it is not part of the label). */
export function Field({
  label,
  hint,
  children,
  className = "",
}: {
  label: string;
  hint?: ReactNode;
  children: ReactElement<{ id?: string; "aria-describedby"?: string }>;
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={`space-y-1 ${className}`}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {cloneElement(children, { id, "aria-describedby": hint ? hintId : undefined })}
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({
  label,
  hint,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { label: ReactNode; hint?: ReactNode }) {
  return (
    <label className="flex items-start gap-2.5 text-sm text-slate-800">
      <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-orange-700" {...props} />
      <span>
        {label}
        {hint && <span className="block text-slate-600">{hint}</span>}
      </span>
    </label>
  );
}

/** The account's password, asked again before a change that outlives this sign-in (form field `currentPassword`). */
export function CurrentPasswordField({ hint, className }: { hint?: ReactNode; className?: string }) {
  return (
    <Field label="Current password" hint={hint} className={className}>
      <input
        name="currentPassword"
        type="password"
        required
        autoComplete="current-password"
        className={inputClass}
      />
    </Field>
  );
}
